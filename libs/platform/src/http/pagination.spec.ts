import { decodeStartKey, encodeStartKey, pageLinks } from './pagination';

describe('pagination helpers', () => {
  it('round-trips a start key', () => {
    const key = encodeStartKey(['2026-01-01T00:00:00.000Z', 'abc']);
    expect(decodeStartKey(key)).toEqual(['2026-01-01T00:00:00.000Z', 'abc']);
  });

  it('rejects a start key that is not one of ours, naming the field', () => {
    expect(() => decodeStartKey('garbage')).toThrow(
      expect.objectContaining({ status: 400, fields: [expect.objectContaining({ field: 'start_key' })] }),
    );
  });

  it('refuses well-formed base64url of JSON it would not have written', () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const key of [
      b64({ a: 1 }),
      b64([1, 2, 3]),
      b64([null, 'x']),
      b64([{}, []]),
      b64(['a\u0000', 'b']),
      b64(['\ud800', 'x']),
      b64(['x'.repeat(300), 'y']),
      'a b',
      'x'.repeat(2000),
    ])
      expect(() => decodeStartKey(key)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('builds self and next links that keep the other query parameters', () => {
    const links = pageLinks('http://h:1', '/v1/checks?report_id=r1&start_key=old', 'NEW');
    expect(links.self).toBe('http://h:1/v1/checks?report_id=r1&start_key=old');
    expect(links.next).toBe('http://h:1/v1/checks?report_id=r1&start_key=NEW');
    expect(pageLinks('http://h:1', '/v1/checks').next).toBeUndefined();
  });
});
