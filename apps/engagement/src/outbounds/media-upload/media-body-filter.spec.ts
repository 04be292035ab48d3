import { FormMediaBodyFilter, JsonMediaBodyFilter, KeptBodyTooLarge, MediaBodyFilter } from './media-body-filter';

/** Runs a body through a filter in pieces of `step` bytes; answers the kept body, the file and the outcome. */
function run(kind: 'json' | 'form', body: string, step: number) {
  let file: Buffer[] = [];
  const out = (b: Buffer) => file.push(Buffer.from(b));
  const restart = () => (file = []);
  const filter: MediaBodyFilter =
    kind === 'json' ? new JsonMediaBodyFilter(out, restart) : new FormMediaBodyFilter(out, restart);
  const bytes = Buffer.from(body, 'utf8');
  for (let i = 0; i < bytes.length; i += step) filter.write(bytes.subarray(i, i + step));
  if (filter instanceof FormMediaBodyFilter) filter.finish();
  return {
    kept: filter.body().toString('utf8'),
    file: Buffer.concat(file),
    outcome: filter.outcome,
    size: filter.size,
  };
}

const data = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7) % 256));
const b64 = data.toString('base64');

describe('media body filter', () => {
  it.each([1, 3, 7, 4096, 1_000_000])('diverts the file of a JSON body read %i bytes at a time', (step) => {
    const body = JSON.stringify({
      waba_phone_number: '+573001',
      media_type: 'IMAGE',
      file: b64,
      mime_type: 'image/png',
    });
    const r = run('json', body, step);
    expect(r.outcome).toBe('valid');
    expect(r.size).toBe(data.length);
    expect(r.file.equals(data)).toBe(true);
    expect(JSON.parse(r.kept)).toEqual({
      waba_phone_number: '+573001',
      media_type: 'IMAGE',
      file: 'AAAA',
      mime_type: 'image/png',
    });
  });

  it('undoes JSON escapes in the file text (\\/ and \\u) and leaves nested or other fields alone', () => {
    const text = Buffer.from('hi?>').toString('base64'); // aGk/Pg==
    const escaped = text.replace('/', '\\/').replace('P', '\\u0050');
    const body = `{"x":{"file":"nested"},"fi\\u006ce":"${escaped}","y":["file"]}`;
    const r = run('json', body, 2);
    expect(r.file.toString()).toBe('hi?>');
    expect(JSON.parse(r.kept)).toEqual({ x: { file: 'nested' }, file: 'AAAA', y: ['file'] });
  });

  it.each([
    ['not Base64', '{"file":"%%%"}', 'invalid', '!'],
    ['unpadded', '{"file":"aGVsbG8"}', 'invalid', '!'],
    ['padding inside', '{"file":"aG=sbG8h"}', 'invalid', '!'],
    ['empty', '{"file":""}', 'empty', ''],
  ])('answers a file that is %s with a placeholder the validation reads the same', (_, body, outcome, placeholder) => {
    const r = run('json', body, 3);
    expect(r.outcome).toBe(outcome);
    expect(JSON.parse(r.kept)).toEqual({ file: placeholder });
  });

  it('keeps a file value that is not text as it is', () => {
    const r = run('json', '{"file": 12, "a": "b"}', 1);
    expect(r.outcome).toBe('not_text');
    expect(JSON.parse(r.kept)).toEqual({ file: 12, a: 'b' });
  });

  it('keeps malformed JSON malformed (the parser refuses it)', () => {
    expect(() => JSON.parse(run('json', '{"a": "b", "file": "aGk=" ', 5).kept)).toThrow();
  });

  it('takes the last of two file fields, as the parser does', () => {
    const r = run(
      'json',
      `{"file":"${Buffer.from('first').toString('base64')}","file":"${Buffer.from('second!').toString('base64')}"}`,
      4,
    );
    expect(r.file.toString()).toBe('second!');
    expect(r.size).toBe(7);
  });

  it('refuses other fields larger than the bound', () => {
    expect(() => run('json', JSON.stringify({ a: 'x'.repeat(70_000), file: 'aGk=' }), 1000)).toThrow(KeptBodyTooLarge);
  });

  it.each([1, 5, 100_000])('diverts the file of a form body read %i bytes at a time', (step) => {
    const body = `waba_phone_number=%2B573001&file=${encodeURIComponent(b64)}&media_type=IMAGE`;
    const r = run('form', body, step);
    expect(r.outcome).toBe('valid');
    expect(r.file.equals(data)).toBe(true);
    expect(Object.fromEntries(new URLSearchParams(r.kept))).toEqual({
      waba_phone_number: '+573001',
      file: 'AAAA',
      media_type: 'IMAGE',
    });
  });

  it('reads an unencoded + in a form value as a space (not Base64), as the form parser does', () => {
    const r = run('form', 'file=a+bc', 1);
    expect(r.outcome).toBe('invalid');
    expect(new URLSearchParams(r.kept).get('file')).toBe('!');
  });
});
