import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  KeyObject,
  randomUUID,
  sign,
  verify,
} from 'node:crypto';

import type { ApiKeyClaims, PlatformAdminClaims } from '@kyc/contracts';

import { PlatformErrorCode, PlatformException } from '../errors/app.exception';

/**
 * API keys are compact JWTs signed with the platform's Ed25519 key (alg EdDSA). Any service
 * verifies them offline with the public key; only the identity service (and the stack command
 * that seeds the demo tenant) holds the private key.
 */
const HEADER = Buffer.from(JSON.stringify({ alg: 'EdDSA', typ: 'JWT' })).toString('base64url');

export type TokenClaims = ApiKeyClaims | PlatformAdminClaims;

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

  sign(claims: TokenClaims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const signature = sign(null, Buffer.from(`${HEADER}.${payload}`), this.key).toString('base64url');
    return `${HEADER}.${payload}.${signature}`;
  }

  /** A short-lived operator token for the platform administration endpoints. */
  platformAdminToken(subject = 'platform-operator', ttlSeconds = 600): string {
    const now = Math.floor(Date.now() / 1000);
    return this.sign({ jti: randomUUID(), sub: subject, key_type: 'platform_admin', iat: now, exp: now + ttlSeconds });
  }
}

export class ApiKeyVerifier {
  private readonly key: KeyObject;
  /** Verified signatures, so a hot key is checked once; expiry and revocation are checked every time. */
  private readonly verified = new Map<string, TokenClaims>();

  constructor(
    publicKeyPem: string,
    private readonly cacheSize = 10_000,
  ) {
    this.key = createPublicKey(publicKeyPem);
  }

  verify(token: string, nowSeconds = Math.floor(Date.now() / 1000)): TokenClaims {
    let claims = this.verified.get(token);
    if (!claims) {
      claims = this.verifySignature(token);
      if (this.verified.size >= this.cacheSize) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, claims);
    }
    if (typeof claims.exp === 'number' && claims.exp <= nowSeconds) {
      throw new PlatformException(PlatformErrorCode.ExpiredApiKey, 'The API key has expired');
    }
    return claims;
  }

  private verifySignature(token: string): TokenClaims {
    const parts = token.split('.');
    if (parts.length !== 3) throw new PlatformException(PlatformErrorCode.InvalidApiKey, 'The API key is malformed');
    const [header, payload, signature] = parts;
    let ok = false;
    try {
      const alg = JSON.parse(Buffer.from(header, 'base64url').toString()).alg;
      ok =
        alg === 'EdDSA' &&
        verify(null, Buffer.from(`${header}.${payload}`), this.key, Buffer.from(signature, 'base64url'));
    } catch {
      ok = false;
    }
    if (!ok) throw new PlatformException(PlatformErrorCode.InvalidApiKey, 'The API key is not valid');
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      if (
        typeof claims !== 'object' ||
        !claims ||
        typeof claims.jti !== 'string' ||
        typeof claims.key_type !== 'string'
      )
        throw new Error('claims');
      return claims as TokenClaims;
    } catch {
      throw new PlatformException(PlatformErrorCode.InvalidApiKey, 'The API key is malformed');
    }
  }
}
