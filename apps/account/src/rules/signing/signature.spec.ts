import { createHmac } from 'node:crypto';

import { newSigningSecret, signatureHeader, verifySignature } from './signature';

describe('webhook signatures', () => {
  const body = '{"check_id":"CHK1"}';
  const now = 1_763_800_000;

  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">', () => {
    const expected = createHmac('sha256', 'whsec_a').update(`${now}.${body}`).digest('hex');
    expect(signatureHeader(['whsec_a'], body, now)).toBe(`t=${now},v1=${expected}`);
  });

  it('signs with every active secret during a rotation, the new one first', () => {
    const header = signatureHeader(['new', 'old'], body, now);
    expect(header.split(',')).toHaveLength(3);
    expect(verifySignature(header, body, 'new', { now })).toEqual({ ok: true, timestamp: now });
    expect(verifySignature(header, body, 'old', { now })).toEqual({ ok: true, timestamp: now });
    expect(verifySignature(header, body, 'other', { now })).toEqual({ ok: false, reason: 'no_match' });
  });

  it('refuses a changed body, old or future timestamps and malformed headers', () => {
    const header = signatureHeader(['s'], body, now);
    expect(verifySignature(header, `${body} `, 's', { now }).ok).toBe(false);
    expect(verifySignature(header, body, 's', { now: now + 301 })).toEqual({ ok: false, reason: 'too_old' });
    expect(verifySignature(header, body, 's', { now: now - 301 })).toEqual({ ok: false, reason: 'too_new' });
    expect(verifySignature('v1=abc', body, 's', { now }).ok).toBe(false);
    expect(verifySignature(undefined, body, 's', { now }).ok).toBe(false);
  });

  it('makes secrets of 32 random bytes', () => {
    expect(newSigningSecret()).toMatch(/^whsec_[\w-]{43}$/);
    expect(newSigningSecret()).not.toBe(newSigningSecret());
  });
});
