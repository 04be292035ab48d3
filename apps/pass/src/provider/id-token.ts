import { createHash, randomUUID, sign } from 'node:crypto';

import type Provider from 'oidc-provider';

import type { SigningKey } from '../keys/signing-keys.service';

/** What an id_token is signed with: the newest active key (RS256) and its kid, read when signing. */
export interface IdTokenSigner {
  current(): Promise<SigningKey>;
  issuer: string;
  /** Lifetime in seconds (Tokens table: 5 minutes). */
  ttl: number;
  /** Seconds since the epoch. */
  now(): number;
}

export const AUTH_REQ_ID_CLAIM = 'urn:openid:params:jwt:claim:auth_req_id';
/** Claims oidc-provider sets to the token they hash (it hashes them when it signs). */
const HASH_CLAIMS = ['at_hash', 'c_hash', 's_hash', 'urn:openid:params:jwt:claim:rt_hash'];

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token's hash claim for RS256 (OIDC Core 3.1.3.6): the left half of its SHA-256, base64url. */
export const tokenHash = (token: string) =>
  createHash('sha256').update(token).digest().subarray(0, 16).toString('base64url');

/**
 * The id_token of spec 3 ("Tokens") from the claims oidc-provider assembled for it: `iss`, `aud` an array
 * with the client_id, `iat`, `exp`, a unique `jti`, and `at_hash` / `urn:openid:params:jwt:claim:auth_req_id`
 * only on the CIBA grant (the grant handlers set the tokens themselves as hash claims: they are hashed here).
 * Signed once, RS256 with the newest active key and its kid (in the key set at /v1/oauth2/jwks), on libuv's
 * thread pool (off the event loop).
 */
export async function signIdToken(
  claims: Record<string, unknown>,
  clientId: string,
  signer: IdTokenSigner,
  ciba: boolean,
): Promise<string> {
  const iat = signer.now();
  const payload: Record<string, unknown> = {
    ...claims,
    iss: signer.issuer,
    aud: [clientId],
    iat,
    exp: iat + signer.ttl,
  };
  payload.jti = randomUUID();
  for (const claim of HASH_CLAIMS) {
    const token = payload[claim];
    if (typeof token === 'string' && token) payload[claim] = tokenHash(token);
    else delete payload[claim];
  }
  if (!ciba) {
    delete payload.at_hash;
    delete payload[AUTH_REQ_ID_CLAIM];
  }
  const { key, kid } = await signer.current();
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64(payload)}`;
  const signature = await new Promise<Buffer>((resolve, reject) =>
    sign('sha256', Buffer.from(input), key, (err, result) => (err ? reject(err) : resolve(result))),
  );
  return `${input}.${signature.toString('base64url')}`;
}

type IdTokenModel = InstanceType<Provider['IdToken']>;

/**
 * Makes the provider's id_tokens those of spec 3 from the start, so that each is signed once: oidc-provider
 * signs `aud` as a string, without `jti` and with `at_hash` on every grant, which the Tokens table shapes
 * otherwise. Its IdToken model (one class per provider instance) keeps assembling the claims (`payload()`:
 * sub, acr, amr, auth_time, nonce, sid and the hashes' inputs); pass signs them (signIdToken). On the
 * refresh_token grant nothing is issued: spec 3 gives no id_token on refresh. The other uses of the model
 * (logout, JWT userinfo, JWT introspection, JARM) are not enabled and keep oidc-provider's own issue.
 */
export function issueSpecIdTokens(provider: Provider, signer: IdTokenSigner, cibaGrant: string): void {
  const model: IdTokenModel = provider.IdToken.prototype;
  const ownIssue = Object.getOwnPropertyDescriptor(model, 'issue')?.value as IdTokenModel['issue'];
  model.issue = async function issue(this: IdTokenModel, options) {
    if (options?.use !== 'idtoken') return ownIssue.call(this, options);
    const grantType = this.ctx?.oidc.params?.grant_type;
    if (grantType === 'refresh_token') return undefined as unknown as string;
    return signIdToken(await this.payload(), this.client.clientId, signer, grantType === cibaGrant);
  };
}
