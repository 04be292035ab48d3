import { newId } from './new-id';

describe('newId', () => {
  it('is the prefix followed by 32 hex digits of a v4 UUID', () => {
    expect(newId('RUL')).toMatch(/^RUL[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
  });

  it('can be shorter', () => {
    expect(newId('VER', 20)).toMatch(/^VER[0-9a-f]{20}$/);
  });

  it('differs at every call', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId('X')));
    expect(ids.size).toBe(1000);
  });
});
