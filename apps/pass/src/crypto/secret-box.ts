import { createCipheriv, createDecipheriv, createHmac, randomBytes, scryptSync } from 'node:crypto';

const VERSION = 'v1';

/**
 * Seals pass's secrets at rest (client secrets, signing keys) with AES-256-GCM (random 96-bit IV, 128-bit
 * tag). The additional authenticated data binds a sealed value to its row, so a value copied into another
 * row does not open. Format: `v1.<iv>.<tag>.<ciphertext>` (base64url). The key comes from PASS_SECRETS_KEY:
 * 64 hex characters are the key as is; any other text is stretched with scrypt.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = /^[0-9a-fA-F]{64}$/.test(keyMaterial)
      ? Buffer.from(keyMaterial, 'hex')
      : scryptSync(keyMaterial, 'kyc-pass-secrets/v1', 32);
  }

  seal(plaintext: string, aad: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(aad));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      ciphertext.toString('base64url'),
    ].join('.');
  }

  /** Throws when the value was not sealed with this key and AAD (or was altered). */
  open(sealed: string, aad: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined)
      throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** A key derived for one purpose (cookie signing, code hashing), stable for a given PASS_SECRETS_KEY. */
  derive(purpose: string): string {
    return createHmac('sha256', this.key).update(purpose).digest('base64url');
  }
}
