import { loadValidationsConfig } from './validations.config';

const base = { DATABASE_URL: 'postgres://x', KAFKA_BROKERS: '127.0.0.1:9092', API_KEY_PUBLIC_KEY: 'pem' };

describe('validations configuration', () => {
  it('defaults to port 4007 and the validations schema', () => {
    const config = loadValidationsConfig(base);
    expect(config.PORT).toBe(4007);
    expect(config.DB_SCHEMA).toBe('validations');
    expect(config.kafkaBrokers).toEqual(['127.0.0.1:9092']);
  });

  it('takes the port from the environment', () => {
    expect(loadValidationsConfig({ ...base, PORT: '5999' }).PORT).toBe(5999);
  });

  it('refuses to start without VALIDATIONS_SECRET_KEY in production or with more than one replica', () => {
    expect(() => loadValidationsConfig({ ...base, NODE_ENV: 'production' })).toThrow(
      /VALIDATIONS_SECRET_KEY: required with NODE_ENV=production/,
    );
    expect(() => loadValidationsConfig({ ...base, SERVICE_REPLICAS: '2' })).toThrow(
      /VALIDATIONS_SECRET_KEY: required with SERVICE_REPLICAS=2/,
    );
    const shared = { ...base, NODE_ENV: 'production', SERVICE_REPLICAS: '6', VALIDATIONS_SECRET_KEY: 'a'.repeat(32) };
    expect(loadValidationsConfig(shared).secretKey).toEqual(loadValidationsConfig(shared).secretKey);
    // One development process may still draw its own.
    expect(loadValidationsConfig(base).secretKey).toHaveLength(32);
  });

  it('runs the engine threads at nice 10 unless VALIDATIONS_ENGINE_NICE says otherwise (0-19)', () => {
    expect(loadValidationsConfig(base).VALIDATIONS_ENGINE_NICE).toBe(10);
    expect(loadValidationsConfig({ ...base, VALIDATIONS_ENGINE_NICE: '0' }).VALIDATIONS_ENGINE_NICE).toBe(0);
    expect(() => loadValidationsConfig({ ...base, VALIDATIONS_ENGINE_NICE: '20' })).toThrow(/VALIDATIONS_ENGINE_NICE/);
    expect(() => loadValidationsConfig({ ...base, VALIDATIONS_ENGINE_NICE: '-5' })).toThrow(/VALIDATIONS_ENGINE_NICE/);
  });

  it('fails fast naming every missing variable', () => {
    expect(() => loadValidationsConfig({})).toThrow(
      /DATABASE_URL[\s\S]*KAFKA_BROKERS|KAFKA_BROKERS[\s\S]*DATABASE_URL/,
    );
  });
});

describe('manual review schedule', () => {
  it('is always available by default', () => {
    const config = loadValidationsConfig(base);
    expect(config.reviewAvailableAt(new Date('2026-11-22T03:00:00Z'))).toBe(true);
  });

  it('follows VALIDATIONS_REVIEW_HOURS (UTC) and VALIDATIONS_REVIEW_DAYS', () => {
    const config = loadValidationsConfig({
      ...base,
      VALIDATIONS_REVIEW_HOURS: '8-18',
      VALIDATIONS_REVIEW_DAYS: '1,2,3,4,5',
    });
    expect(config.reviewAvailableAt(new Date('2026-11-23T08:00:00Z'))).toBe(true); // Monday 08:00
    expect(config.reviewAvailableAt(new Date('2026-11-23T17:59:00Z'))).toBe(true);
    expect(config.reviewAvailableAt(new Date('2026-11-23T18:00:00Z'))).toBe(false);
    expect(config.reviewAvailableAt(new Date('2026-11-22T10:00:00Z'))).toBe(false); // Sunday
  });

  it('wraps a night shift over midnight, and 0-0 is never', () => {
    const night = loadValidationsConfig({ ...base, VALIDATIONS_REVIEW_HOURS: '22-6' });
    expect(night.reviewAvailableAt(new Date('2026-11-23T23:00:00Z'))).toBe(true);
    expect(night.reviewAvailableAt(new Date('2026-11-23T12:00:00Z'))).toBe(false);
    const never = loadValidationsConfig({ ...base, VALIDATIONS_REVIEW_HOURS: '0-0' });
    expect(never.reviewAvailableAt(new Date('2026-11-23T12:00:00Z'))).toBe(false);
  });

  it('refuses a malformed schedule, SMTP URL or short secret at boot', () => {
    expect(() => loadValidationsConfig({ ...base, VALIDATIONS_REVIEW_HOURS: '8to18' })).toThrow(
      /VALIDATIONS_REVIEW_HOURS/,
    );
    expect(() => loadValidationsConfig({ ...base, VALIDATIONS_SMTP_URL: 'http://x' })).toThrow(/VALIDATIONS_SMTP_URL/);
    expect(() => loadValidationsConfig({ ...base, VALIDATIONS_SECRET_KEY: 'short' })).toThrow(/VALIDATIONS_SECRET_KEY/);
  });
});
