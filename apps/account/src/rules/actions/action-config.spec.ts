import { normalizeActionConfig } from './action-config';

const fields = (type: Parameters<typeof normalizeActionConfig>[0], raw: unknown) =>
  normalizeActionConfig(type, raw)
    .errors.map((e) => e.field)
    .sort();

describe('action configuration', () => {
  it('fills in http_request defaults and drops unknown keys', () => {
    expect(normalizeActionConfig('http_request', { url: 'https://x.test/{{.check_id}}', extra: 1 })).toEqual({
      config: { url: 'https://x.test/{{.check_id}}', method: 'POST', headers: {}, timeout_ms: 10000, max_attempts: 5 },
      errors: [],
    });
  });

  it('takes form values: numbers as text, lower-case methods, "Name: value" header lines', () => {
    const { config, errors } = normalizeActionConfig('http_request', {
      url: 'http://a.test',
      method: 'patch',
      timeout_ms: '250',
      max_attempts: '2',
      headers: ['X-A: 1', 'X-B: {{.B}}'],
    });
    expect(errors).toEqual([]);
    expect(config).toMatchObject({
      method: 'PATCH',
      timeout_ms: 250,
      max_attempts: 2,
      headers: { 'X-A': '1', 'X-B': '{{.B}}' },
    });
  });

  it('names each bad http_request field', () => {
    expect(fields('http_request', { url: 'javascript:alert(1)' })).toEqual(['config.url']);
    expect(
      fields('http_request', { url: 'https://x.test', method: 'GET', body: 'x', timeout_ms: 50, max_attempts: 11 }),
    ).toEqual(['config.body', 'config.max_attempts', 'config.timeout_ms']);
    expect(
      fields('http_request', {
        url: 'https://x.test',
        headers: { 'Bad Header': 'x', 'Idempotency-Key': 'y', 'X-Multi': 'a\nb' },
      }),
    ).toEqual(['config.headers.Bad Header', 'config.headers.Idempotency-Key', 'config.headers.X-Multi']);
    expect(fields('http_request', { url: 'https://{{.host' })).toEqual(['config.url']);
    expect(fields('http_request', 'not an object')).toEqual(['config']);
  });

  it('accepts e-mail addresses and templates as recipients, nothing else', () => {
    expect(
      normalizeActionConfig('email', { to: 'a@x.test, {{.EMAIL}}', subject: 's', body: 'b' }).config,
    ).toMatchObject({ to: ['a@x.test', '{{.EMAIL}}'], cc: [] });
    expect(fields('email', { to: ['a@x.test', 'nope'], cc: ['also nope'], subject: 'line\nbreak', body: '' })).toEqual([
      'config.body',
      'config.cc[0]',
      'config.subject',
      'config.to[1]',
    ]);
    expect(
      fields('email', { to: Array.from({ length: 21 }, (_, i) => `u${i}@x.test`), subject: 's', body: 'b' }),
    ).toEqual(['config.to']);
  });

  it('checks create_check type, country and input names', () => {
    expect(
      normalizeActionConfig('create_check', {
        type: 'person',
        country: 'CO',
        inputs: { national_id: '{{.national_id}}', custom_input: 'x' },
      }).errors,
    ).toEqual([]);
    expect(fields('create_check', { type: 'per son', country: 'AR', inputs: { nationalid: 'x' } })).toEqual([
      'config.country',
      'config.inputs.nationalid',
      'config.type',
    ]);
  });
});
