import { trustedProxies } from './trusted-proxies';

describe('trustedProxies (TRUSTED_PROXIES)', () => {
  it('trusts no proxy when unset or empty', () => {
    expect(trustedProxies(undefined)).toBe(false);
    expect(trustedProxies(' , ')).toBe(false);
  });

  it('reads addresses, CIDR ranges and the named ranges', () => {
    expect(trustedProxies('10.0.0.0/8, 127.0.0.1,::1, fd00::/8,loopback')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it.each(['*', 'true', '10.0.0.0/33', '::/129', '10.0.0.1/8/1', 'example.com', '10.0.0/8'])('refuses %s', (v) => {
    expect(trustedProxies(v)).toBeUndefined();
  });
});
