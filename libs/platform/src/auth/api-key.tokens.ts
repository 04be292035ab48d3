import { createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, randomUUID } from 'node:crypto';

import type { ApiKeyClaims, PlatformAdminClaims } from '@kyc/contracts';
import { decodeJwt, errors, JWTPayload, jwtVerify, SignJWT } from 'jose';

import { PlatformErrorCode, PlatformException } from '../errors/app.exception';
import { newId } from '../ids/new-id';

/**
 * API keys are compact JWTs signed with the platform's Ed25519 key (alg EdDSA), signed and
 * verified with `jose`. Any service verifies them offline with the public key; only the identity
 * service (and the stack command that seeds the demo tenant) holds the private key.
 */
const ALGORITHM = 'EdDSA';

/** The `aud` of API keys; keys issued before it was added carry none and stay valid. */
export const API_KEY_AUDIENCE = 'kyc-api';
/** The `aud` of platform operator tokens. */
export const PLATFORM_ADMIN_AUDIENCE = 'kyc-platform-admin';

export type TokenClaims = ApiKeyClaims | PlatformAdminClaims;

const audienceOf = (claims: Pick<TokenClaims, 'key_type'>) =>
  claims.key_type === 'platform_admin' ? PLATFORM_ADMIN_AUDIENCE : API_KEY_AUDIENCE;

export function generateSigningKeys(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

export class ApiKeySigner {
  private readonly key: KeyObject;

  constructor(privateKeyPem: string) {
    this.key = createPrivateKey(privateKeyPem);
  }

  /** Signs the claims as given (`iat`, `exp` included), adding the audience of the token's kind. */
  sign(claims: TokenClaims & { aud?: string; nbf?: number }): Promise<string> {
    return new SignJWT({ aud: audienceOf(claims), ...claims })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .sign(this.key);
  }

  /**
   * A short-lived backend key of a user (`KEY…` jti, version 1), for a service calling another on
   * that user's behalf; `now` is the caller's injected clock's time.
   */
  userKey(tenantId: string, userId: string, now: Date, ttlSeconds = 300): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return this.sign({
      jti: newId('KEY'),
      sub: userId,
      tenant_id: tenantId,
      key_type: 'backend',
      ver: 1,
      iat,
      exp: iat + ttlSeconds,
    });
  }

  /** A short-lived operator token for the platform administration endpoints. */
  platformAdminToken(subject = 'platform-operator', ttlSeconds = 600): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return this.sign({ jti: randomUUID(), sub: subject, key_type: 'platform_admin', iat: now, exp: now + ttlSeconds });
  }
}

const invalid = (message = 'The API key is not valid') =>
  new PlatformException(PlatformErrorCode.InvalidApiKey, message);
const expired = () => new PlatformException(PlatformErrorCode.ExpiredApiKey, 'The API key has expired');

export class ApiKeyVerifier {
  private readonly key: KeyObject;
  /** Verified signatures, so a hot key is checked once; its time claims and revocation are checked every time. */
  private readonly verified = new Map<string, TokenClaims & { nbf?: number }>();

  constructor(
    publicKeyPem: string,
    private readonly cacheSize = 10_000,
  ) {
    this.key = createPublicKey(publicKeyPem);
  }

  /**
   * The claims of a key signed with the platform key: alg EdDSA only, `jti`, `iat` and `key_type`
   * present, `exp` in the future, `nbf` not, and `aud`,
   * when the key carries one, the audience of its kind. Throws 401 (`invalid_api_key`,
   * `expired_api_key`) otherwise.
   */
  async verify(token: string, nowSeconds = Math.floor(Date.now() / 1000)): Promise<TokenClaims> {
    let claims = this.verified.get(token);
    if (!claims) {
      claims = await this.verifyToken(token, nowSeconds);
      if (this.verified.size >= this.cacheSize) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, claims);
    }
    if (typeof claims.exp === 'number' && claims.exp <= nowSeconds) throw expired();
    if (typeof claims.nbf === 'number' && claims.nbf > nowSeconds) throw invalid('The API key is not valid yet');
    return claims;
  }

  private async verifyToken(token: string, nowSeconds: number): Promise<TokenClaims> {
    let unverified: JWTPayload;
    try {
      unverified = decodeJwt(token);
    } catch {
      throw invalid('The API key is malformed');
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        typ: 'JWT',
        requiredClaims: ['jti', 'iat'],
        currentDate: new Date(nowSeconds * 1000),
        // Keys issued before the audience was added carry none.
        ...(unverified.aud !== undefined ? { audience: audienceOf(unverified as Pick<TokenClaims, 'key_type'>) } : {}),
      }));
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw expired();
      throw invalid();
    }
    if (typeof payload.jti !== 'string' || typeof payload.key_type !== 'string')
      throw invalid('The API key is malformed');
    return payload as unknown as TokenClaims;
  }
}
