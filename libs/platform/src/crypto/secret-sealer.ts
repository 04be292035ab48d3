import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, scryptSync } from 'node:crypto';

const VERSION = 'v1';

/**
 * Seals secrets at rest (provider credentials, client secrets, signing keys) with AES-256-GCM: a
 * random 96-bit IV per value and a 128-bit tag. The additional authenticated data (AAD) binds a
 * sealed value to where it belongs (tenant, row), so a value copied into another row does not open.
 * Stored form: `v1.<iv>.<tag>.<ciphertext>`, each part base64url (the form every service has stored
 * so far: checks' collector credentials, engagement's provider credentials, pass's and account's
 * secrets).
 */
export class SecretSealer {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('a sealing key must be 32 bytes');
  }

  /**
   * A key from configuration text: 64 hex characters are the key as is (`openssl rand -hex 32`); any
   * other text is a passphrase stretched with scrypt under `salt` (one salt per service, so one
   * passphrase gives each service its own key).
   */
  static keyFrom(material: string, salt: string): Buffer {
    if (/^[0-9a-fA-F]{64}$/.test(material)) return Buffer.from(material, 'hex');
    return scryptSync(material, salt, 32);
  }

  seal(plaintext: string | Buffer, aad: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(aad));
    const data = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext;
    const ciphertext = Buffer.concat([cipher.update(data), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** Throws when the value was not sealed with this key and AAD, or was altered. */
  open(sealed: string, aad: string): string {
    return this.openBytes(sealed, aad).toString('utf8');
  }

  openBytes(sealed: string, aad: string): Buffer {
    const [version, iv, tag, ciphertext, extra] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined || extra !== undefined)
      throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
  }

  /** Seals a JSON value (its JSON text). */
  sealJson(value: unknown, aad: string): string {
    return this.seal(JSON.stringify(value), aad);
  }

  openJson<T>(sealed: string, aad: string): T {
    return JSON.parse(this.open(sealed, aad)) as T;
  }

  /** A 32-byte key for another purpose, derived with HKDF-SHA256 (salt `purpose`, info `info`). */
  deriveKey(purpose: string, info: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, purpose, info, 32));
  }

  /** A per-purpose secret as text: HMAC-SHA256(key, purpose) in base64url (stable for a key). */
  derive(purpose: string): string {
    return createHmac('sha256', this.key).update(purpose).digest('base64url');
  }
}
