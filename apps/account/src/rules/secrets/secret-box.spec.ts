import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox('0f'.repeat(32));

  it('opens what it sealed, and the sealed form does not contain the value', () => {
    const sealed = box.seal('s3cr3t-token', 't1/a1/TOKEN');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('s3cr3t');
    expect(box.open(sealed, 't1/a1/TOKEN')).toBe('s3cr3t-token');
  });

  it('seals the same value differently each time (random IV)', () => {
    expect(box.seal('x', 'a')).not.toBe(box.seal('x', 'a'));
  });

  it('refuses another AAD, another key and altered ciphertext', () => {
    const sealed = box.seal('value', 't1/a1/K');
    expect(() => box.open(sealed, 't2/a1/K')).toThrow();
    expect(() => new SecretBox('another passphrase of some length').open(sealed, 't1/a1/K')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join('.'), 't1/a1/K')).toThrow();
    expect(() => box.open('garbage', 't1/a1/K')).toThrow('not a sealed value');
  });

  it('derives a key from a passphrase deterministically', () => {
    const a = new SecretBox('a passphrase that is long enough');
    const b = new SecretBox('a passphrase that is long enough');
    expect(b.open(a.seal('v', 'x'), 'x')).toBe('v');
  });
});
