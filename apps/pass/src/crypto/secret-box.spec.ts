import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox('a passphrase of enough length');

  it('opens what it sealed with the same additional data', () => {
    expect(box.open(box.seal('s3cret', 'client:a'), 'client:a')).toBe('s3cret');
  });

  it('refuses a sealed value moved to another row', () => {
    expect(() => box.open(box.seal('s3cret', 'client:a'), 'client:b')).toThrow();
  });

  it('refuses a value sealed with another key', () => {
    expect(() => new SecretBox('another passphrase, long').open(box.seal('x', 'k'), 'k')).toThrow();
  });

  it('derives stable per-purpose keys', () => {
    expect(box.derive('cookies')).toBe(new SecretBox('a passphrase of enough length').derive('cookies'));
    expect(box.derive('cookies')).not.toBe(box.derive('codes'));
  });
});
