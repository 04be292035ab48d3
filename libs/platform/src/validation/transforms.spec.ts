import { parseBoolean } from './transforms';

describe('parseBoolean', () => {
  it('accepts true and false in any case', () => {
    expect(parseBoolean('true')).toBe(true);
    expect(parseBoolean('TRUE')).toBe(true);
    expect(parseBoolean('false')).toBe(false);
    expect(parseBoolean(true)).toBe(true);
  });

  it('keeps other values so the validator can name them', () => {
    expect(parseBoolean('yes')).toBe('yes');
    expect(parseBoolean('1')).toBe('1');
    expect(parseBoolean(undefined)).toBeUndefined();
  });
});
