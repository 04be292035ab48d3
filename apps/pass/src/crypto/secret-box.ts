import { SecretSealer } from '@kyc/platform';

/**
 * Seals pass's secrets at rest (client secrets, signing keys): the platform's SecretSealer
 * (AES-256-GCM, AAD binding a value to its row, `v1.<iv>.<tag>.<ciphertext>`) keyed by
 * PASS_SECRETS_KEY: 64 hex characters are the key as is; any other text is stretched with scrypt.
 * `derive(purpose)` gives stable per-purpose secrets (cookie signing, code hashing).
 */
export class SecretBox extends SecretSealer {
  constructor(keyMaterial: string) {
    super(SecretSealer.keyFrom(keyMaterial, 'kyc-pass-secrets/v1'));
  }
}
