import { foldDottedFields } from './form-body.decorator';

describe('foldDottedFields', () => {
  it('nests config.<field> and config.<field>.<name> (the rest of the key is one name)', () => {
    expect(
      foldDottedFields(
        {
          name: 'n',
          'config.url': 'u',
          'config.headers.X-Api.Key': 'k',
          'config.inputs.national_id': '{{.national_id}}',
        },
        ['config'],
      ),
    ).toEqual({
      name: 'n',
      config: { url: 'u', headers: { 'X-Api.Key': 'k' }, inputs: { national_id: '{{.national_id}}' } },
    });
  });

  it('parses JSON text in the plain field, and merges dotted fields into it', () => {
    expect(
      foldDottedFields({ config: '{"url": "u", "headers": {"A": "1"}}', 'config.headers.B': '2' }, ['config']),
    ).toEqual({ config: { url: 'u', headers: { A: '1', B: '2' } } });
  });

  it('leaves text that is not JSON for the validator, and bodies without the prefix alone', () => {
    expect(foldDottedFields({ config: 'nope' }, ['config'])).toEqual({ config: 'nope' });
    expect(foldDottedFields({ name: 'x' }, ['config'])).toEqual({ name: 'x' });
  });
});
