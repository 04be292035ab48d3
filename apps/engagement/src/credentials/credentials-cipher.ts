import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * (The same sealing as the checks service's collector credentials; a copy, since apps share only libs.)
 * AES-256-GCM with a random 96-bit IV per value. The additional authenticated data binds a
 * ciphertext to its row (tenant and database), so a value copied to another row does not decrypt.
 * Stored form: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class CredentialsCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the credentials key must be 32 bytes');
  }

  encrypt(plain: unknown, aad: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(aad));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(plain), 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  decrypt<T>(stored: string, aad: string): T {
    const [version, iv, tag, ciphertext] = stored.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('unknown credentials format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return JSON.parse(
      Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8'),
    ) as T;
  }

  /** A key for another purpose, derived with HKDF-SHA256 (e.g. the HMAC secret of a webhook type). */
  derive(purpose: string, info: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, purpose, info, 32));
  }
}
