import { createCipheriv, randomBytes, scryptSync } from 'node:crypto';

import { SecretSealer } from './secret-sealer';

/** The sealing every service wrote before this helper (AES-256-GCM, `v1.<iv>.<tag>.<ct>` base64url). */
function legacySeal(key: Buffer, plaintext: string, aad: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    ciphertext.toString('base64url'),
  ].join('.');
}

describe('SecretSealer', () => {
  const key = randomBytes(32);
  const sealer = new SecretSealer(key);

  it('opens what it sealed with the same AAD and never stores the value in clear', () => {
    const sealed = sealer.seal('s3cret-pass', 't1/db');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('s3cret');
    expect(sealer.open(sealed, 't1/db')).toBe('s3cret-pass');
  });

  it('round-trips JSON values', () => {
    const sealed = sealer.sealJson({ password: 'p', complements: { a: 1 } }, 'row');
    expect(sealer.openJson(sealed, 'row')).toEqual({ password: 'p', complements: { a: 1 } });
  });

  it('opens rows stored by the former per-service copies (same format)', () => {
    expect(sealer.open(legacySeal(key, 'old row', 'aad'), 'aad')).toBe('old row');
    expect(sealer.openJson(legacySeal(key, JSON.stringify({ a: 'b' }), 'aad'), 'aad')).toEqual({ a: 'b' });
  });

  it('uses a fresh IV every time', () => {
    expect(sealer.seal('x', 'a')).not.toBe(sealer.seal('x', 'a'));
  });

  it('refuses another row, another key, a tampered value or another format', () => {
    const sealed = sealer.seal('p', 't1/db');
    expect(() => sealer.open(sealed, 't2/db')).toThrow();
    expect(() => new SecretSealer(randomBytes(32)).open(sealed, 't1/db')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => sealer.open(parts.join('.'), 't1/db')).toThrow();
    expect(() => sealer.open(`v2.${sealed.slice(3)}`, 't1/db')).toThrow('not a sealed value');
    expect(() => sealer.open('plain text', 't1/db')).toThrow('not a sealed value');
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new SecretSealer(randomBytes(16))).toThrow('32 bytes');
  });

  it('reads key material: 64 hex characters as is, any other text stretched with scrypt under the salt', () => {
    const hex = randomBytes(32);
    expect(SecretSealer.keyFrom(hex.toString('hex'), 's').equals(hex)).toBe(true);
    const pass = 'a passphrase of enough length';
    expect(SecretSealer.keyFrom(pass, 'salt-a').equals(scryptSync(pass, 'salt-a', 32))).toBe(true);
    expect(SecretSealer.keyFrom(pass, 'salt-a').equals(SecretSealer.keyFrom(pass, 'salt-b'))).toBe(false);
  });

  it('derives distinct, stable keys per purpose (HKDF) and per-purpose secrets (HMAC)', () => {
    expect(sealer.deriveKey('webhooks', 'sandbox').equals(sealer.deriveKey('webhooks', 'sandbox'))).toBe(true);
    expect(sealer.deriveKey('webhooks', 'sandbox').equals(sealer.deriveKey('webhooks', 'other'))).toBe(false);
    expect(sealer.derive('cookies')).toBe(new SecretSealer(key).derive('cookies'));
    expect(sealer.derive('cookies')).not.toBe(sealer.derive('codes'));
  });
});
