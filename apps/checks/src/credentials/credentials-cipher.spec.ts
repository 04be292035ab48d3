import { randomBytes } from 'node:crypto';

import { CredentialsCipher } from './credentials-cipher';

describe('CredentialsCipher', () => {
  const cipher = new CredentialsCipher(randomBytes(32));

  it('round-trips a value and never stores it in clear', () => {
    const stored = cipher.encrypt({ password: 's3cret-pass' }, 't1/db');
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain('s3cret');
    expect(cipher.decrypt(stored, 't1/db')).toEqual({ password: 's3cret-pass' });
  });

  it('uses a fresh IV every time', () => {
    expect(cipher.encrypt('x', 'a')).not.toBe(cipher.encrypt('x', 'a'));
  });

  it('refuses another row, another key or a tampered value', () => {
    const stored = cipher.encrypt({ password: 'p' }, 't1/db');
    expect(() => cipher.decrypt(stored, 't2/db')).toThrow();
    expect(() => new CredentialsCipher(randomBytes(32)).decrypt(stored, 't1/db')).toThrow();
    const parts = stored.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'), 't1/db')).toThrow();
  });

  it('derives distinct, stable keys per purpose', () => {
    expect(cipher.derive('webhooks', 'sandbox').equals(cipher.derive('webhooks', 'sandbox'))).toBe(true);
    expect(cipher.derive('webhooks', 'sandbox').equals(cipher.derive('webhooks', 'other'))).toBe(false);
  });
});
