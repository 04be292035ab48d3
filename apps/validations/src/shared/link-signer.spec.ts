import { loadValidationsConfig } from '../config/validations.config';
import { Secrets } from './link-signer';

const config = (key: string) =>
  loadValidationsConfig({
    DATABASE_URL: 'x',
    KAFKA_BROKERS: 'x',
    API_KEY_PUBLIC_KEY: 'x',
    VALIDATIONS_SECRET_KEY: key,
  });

describe('Secrets', () => {
  const secrets = new Secrets(config('a-secret-of-16-chars'));

  it('verifies its own link signatures only for the same purpose, id and expiry', () => {
    const sig = secrets.sign('upload', 'MED1', 1000);
    expect(secrets.verify('upload', 'MED1', 1000, sig)).toBe(true);
    expect(secrets.verify('media', 'MED1', 1000, sig)).toBe(false);
    expect(secrets.verify('upload', 'MED2', 1000, sig)).toBe(false);
    expect(secrets.verify('upload', 'MED1', 1001, sig)).toBe(false);
    expect(new Secrets(config('another-secret-16-chars')).verify('upload', 'MED1', 1000, sig)).toBe(false);
  });

  it('keys the one-time codes of OTP validations with a key of their own', () => {
    expect(secrets.otp.name).toBe('validations.otp');
    expect(secrets.otp.key).not.toEqual(new Secrets(config('another-secret-16-chars')).otp.key);
  });

  it('seals and opens a code; a tampered seal does not open', () => {
    const sealed = secrets.seal('654321');
    expect(sealed).not.toContain('654321');
    expect(secrets.open(sealed)).toBe('654321');
    expect(() => secrets.open(sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA'))).toThrow();
  });
});
