import { parseTemplate, renderTemplate, templateError } from './template';

const scope = {
  variables: { national_id: '123', score: 0.75, first_name: 'Ana "A"', custom_input: null, country: 'CO' },
  env: { API_TOKEN: 'tok', country: 'env-country' },
};

describe('templates', () => {
  it('renders event variables, env vars, and leaves text alone', () => {
    expect(renderTemplate('id={{.national_id}} score={{ .score }} token={{.API_TOKEN}}', scope)).toBe(
      'id=123 score=0.75 token=tok',
    );
    expect(renderTemplate('no expressions at all', scope)).toBe('no expressions at all');
  });

  it('prefers the event variable over an env var of the same name, unless .env. is explicit', () => {
    expect(renderTemplate('{{.country}} {{.env.country}}', scope)).toBe('CO env-country');
  });

  it('renders a missing or null value as empty text (null with json)', () => {
    expect(renderTemplate('[{{.nope}}][{{.custom_input}}][{{.nope | json}}]', scope)).toBe('[][][null]');
  });

  it('applies json and urlquery filters', () => {
    expect(renderTemplate('{"name": {{.first_name | json}}, "score": {{.score | json}}}', scope)).toBe(
      '{"name": "Ana \\"A\\"", "score": 0.75}',
    );
    expect(renderTemplate('https://x.test/?q={{.first_name | urlquery}}', scope)).toBe(
      'https://x.test/?q=Ana%20%22A%22',
    );
  });

  it('refuses what is not an expression, unknown filters and unclosed braces', () => {
    expect(templateError('{{national_id}}')).toMatch(/not a template expression/);
    expect(templateError('{{.a | upper}}')).toMatch(/unknown template filter "upper"/);
    expect(templateError('x {{.a')).toMatch(/unclosed/);
    expect(templateError('{{.a}} and {{ .env.B | json }}')).toBeUndefined();
  });

  it('parses into literal parts and expressions', () => {
    expect(parseTemplate('a{{.b}}c')).toEqual(['a', { scope: 'any', name: 'b', filters: [] }, 'c']);
  });
});
