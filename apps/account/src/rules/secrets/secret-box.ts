import { SecretSealer } from '@kyc/platform';

/**
 * Seals secret values at rest: the platform's SecretSealer (AES-256-GCM; the additional
 * authenticated data binds a sealed value to where it belongs, tenant, action and name, so a value
 * copied into another row does not open; format `v1.<iv>.<tag>.<ciphertext>`).
 *
 * The key comes from ACCOUNT_SECRETS_KEY: 64 hex characters are used as the 32-byte key as is
 * (generate one with `openssl rand -hex 32`); any other text (at least 16 characters) is
 * stretched into a key with scrypt.
 */
export class SecretBox extends SecretSealer {
  constructor(keyMaterial: string) {
    super(SecretSealer.keyFrom(keyMaterial, 'kyc-account-secrets/v1'));
  }
}
