import { foldDottedFields } from './form-body';

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
        2,
      ),
    ).toEqual({
      name: 'n',
      config: { url: 'u', headers: { 'X-Api.Key': 'k' }, inputs: { national_id: '{{.national_id}}' } },
    });
  });

  it('parses JSON text in the plain field, and merges dotted fields into it', () => {
    expect(
      foldDottedFields({ config: '{"url": "u", "headers": {"A": "1"}}', 'config.headers.B': '2' }, ['config'], 2),
    ).toEqual({ config: { url: 'u', headers: { A: '1', B: '2' } } });
  });

  it('leaves text that is not JSON for the validator, and bodies without the prefix alone', () => {
    expect(foldDottedFields({ config: 'nope' }, ['config'])).toEqual({ config: 'nope' });
    expect(foldDottedFields({ name: 'x' }, ['config'])).toEqual({ name: 'x' });
  });

  it('with one level keeps the rest of the key as one name, for every prefix', () => {
    expect(
      foldDottedFields(
        { 'custom_property_values.CPR1': 'a', 'custom_property_values.CPR.2': 'b', 'tags.x': '1', other: 'o' },
        ['custom_property_values', 'tags'],
      ),
    ).toEqual({ custom_property_values: { CPR1: 'a', 'CPR.2': 'b' }, tags: { x: '1' }, other: 'o' });
  });

  it('leaves a plain field that is not an object, dropping its dotted fields', () => {
    expect(foldDottedFields({ config: '[1]', 'config.url': 'u' }, ['config'])).toEqual({ config: [1] });
  });
});
