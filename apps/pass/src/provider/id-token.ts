import { createSign, KeyObject, randomUUID } from 'node:crypto';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The id_token of spec 3 ("Tokens"): oidc-provider signs `aud` as a string and no `jti`; pass re-issues
 * the token it made (signed HS256 with the client secret, an intermediate nobody sees) with RS256 and the
 * provider's signing key and kid, with `aud` an array with the client_id, a unique `jti`,
 * and `at_hash` / `urn:openid:params:jwt:claim:auth_req_id` only on the CIBA grant.
 */
export function reshapeIdToken(idToken: string, key: KeyObject, kid: string, ciba: boolean): string {
  const rawPayload = idToken.split('.')[1];
  const header = { alg: 'RS256', typ: 'JWT', kid };
  const payload = JSON.parse(Buffer.from(rawPayload, 'base64url').toString()) as Record<string, unknown>;
  payload.aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  payload.jti = randomUUID();
  if (!ciba) {
    delete payload.at_hash;
    delete payload['urn:openid:params:jwt:claim:auth_req_id'];
  }
  const input = `${b64(header)}.${b64(payload)}`;
  const signature = createSign('RSA-SHA256').update(input).sign(key).toString('base64url');
  return `${input}.${signature}`;
}
