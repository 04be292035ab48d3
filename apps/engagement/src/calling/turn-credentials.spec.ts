import { createHmac } from 'node:crypto';

import { turnCredential } from './turn-credentials';

describe('turnCredential (TURN REST API)', () => {
  it('signs "<expiry>:<user>" with HMAC-SHA1 of the shared secret, in base64', () => {
    const c = turnCredential('north', 'agent@acme.com', Date.UTC(2026, 10, 25, 10, 0, 0), 3600);
    const expiry = Date.UTC(2026, 10, 25, 11, 0, 0) / 1000;
    expect(c.username).toBe(`${expiry}:agent@acme.com`);
    expect(c.credential).toBe(createHmac('sha1', 'north').update(c.username).digest('base64'));
    expect(c.expiresAt.toISOString()).toBe('2026-11-25T11:00:00.000Z');
  });

  it('matches a known coturn value', () => {
    // echo -n "1700000000:alice" | openssl dgst -sha1 -hmac secret -binary | base64
    expect(turnCredential('secret', 'alice', 1_700_000_000_000 - 60_000, 60).credential).toBe(
      'd8soP47RbdIKLDUOpnJPVQyq5Ts=',
    );
  });
});
