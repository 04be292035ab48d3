import { canonicalJson, openReplay, sealReplay, storedKey } from './idempotency';

describe('canonicalJson', () => {
  it('is the same for the same body in another key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 2], c: 'x' } })).toBe(canonicalJson({ a: { c: 'x', d: [1, 2] }, b: 1 }));
  });

  it('differs when a value or the array order differs', () => {
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
  });
});

describe('stored replays', () => {
  it('are sealed under the Idempotency-Key: no secret in clear, opened only with the same key and tenant', () => {
    const body = JSON.stringify({ secret: 'whsec_abc123' });
    const sealed = sealReplay('t1', 'key-1', body);
    expect(JSON.stringify(sealed)).not.toContain('whsec_');
    expect(openReplay('t1', 'key-1', sealed)).toEqual({ secret: 'whsec_abc123' });
    expect(() => openReplay('t1', 'key-2', sealed)).toThrow();
    expect(() => openReplay('t2', 'key-1', sealed)).toThrow();
  });

  it('store the key as a hash, and open answers stored before sealing as they are', () => {
    expect(storedKey('key-1')).toMatch(/^[0-9a-f]{64}$/);
    expect(storedKey('key-1')).not.toContain('key-1');
    expect(openReplay('t1', 'k', { code: 400 })).toEqual({ code: 400 });
  });
});
