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

  it('builds self and next links that keep the other query parameters', () => {
    const links = pageLinks('http://h:1', '/v1/checks?report_id=r1&start_key=old', 'NEW');
    expect(links.self).toBe('http://h:1/v1/checks?report_id=r1&start_key=old');
    expect(links.next).toBe('http://h:1/v1/checks?report_id=r1&start_key=NEW');
    expect(pageLinks('http://h:1', '/v1/checks').next).toBeUndefined();
  });
});
