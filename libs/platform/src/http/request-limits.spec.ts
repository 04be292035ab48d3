import { DEFAULT_INPUT_LIMITS, inspectInput } from './request-limits';

describe('inspectInput', () => {
  it('accepts ordinary input', () => {
    expect(inspectInput({ a: 'x', b: [1, { c: 'é😀' }], d: null })).toBeUndefined();
  });

  it('leaves raw upload bodies (bytes) alone', () => {
    expect(inspectInput(Buffer.alloc(2_000_000, 0))).toBeUndefined();
    expect(inspectInput({ file: new Uint8Array(5_000) })).toBeUndefined();
  });

  it('refuses NUL characters and unpaired surrogates in values and keys, naming the field', () => {
    expect(inspectInput({ name: 'a\u0000b' })).toMatchObject({ status: 400, fields: [{ field: 'name' }] });
    expect(inspectInput({ list: ['ok', '\ud800'] })).toMatchObject({ status: 400, fields: [{ field: 'list[1]' }] });
    expect(inspectInput({ ['k\udc00']: 1 })).toMatchObject({ status: 400, fields: [{ field: 'k?' }] });
  });

  it('refuses deep nesting without recursing (100,000 levels)', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(inspectInput({ deep })).toMatchObject({ status: 400 });
  });

  it('refuses too many keys (as many as 1 MiB of JSON holds), values or too long a text with 413, quickly', () => {
    const many = Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [`k${i}`, 1]));
    const started = Date.now();
    expect(inspectInput(many)).toMatchObject({ status: 413 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(inspectInput({ a: 'x'.repeat(DEFAULT_INPUT_LIMITS.maxStringLength + 1) })).toMatchObject({ status: 413 });
    expect(inspectInput(Array.from({ length: 60_000 }, () => 1))).toMatchObject({ status: 413 });
  });
});
