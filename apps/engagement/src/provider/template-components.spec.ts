import {
  fromPositional,
  malformedVariables,
  qualityOf,
  templateVariables,
  toGraphSend,
  toPositional,
  variablesOf,
} from './template-components';

describe('template translation to and from the provider', () => {
  it('finds {{.name}} variables in order of first appearance, and malformed ones', () => {
    expect(variablesOf('Hola {{.name}}, pedido {{.order}} de {{.name}}')).toEqual(['name', 'order']);
    expect(malformedVariables('Hola {{name}} {{.ok}} {{ .x }}')).toEqual(['{{name}}', '{{ .x }}']);
  });

  it('numbers variables per component and reads them back', () => {
    const text = 'Hola {{.name}}, pedido {{.order}} de {{.name}}';
    expect(toPositional(text)).toBe('Hola {{1}}, pedido {{2}} de {{1}}');
    expect(fromPositional('Hola {{1}}, pedido {{2}} de {{1}}', ['name', 'order'])).toBe(text);
  });

  it('lists the variables a send must supply: header, body, URL buttons, COPY_CODE; AUTHENTICATION only code', () => {
    expect(
      templateVariables({
        category: 'MARKETING',
        headerText: 'Pedido {{.order}}',
        content: 'Hola {{.name}} {{.order}}',
        buttons: [
          { type: 'URL', text: 'Ver', url: 'https://a.example.com/{{.slug}}' },
          { type: 'COPY_CODE', text: '' },
        ],
      }),
    ).toEqual(['order', 'name', 'slug', 'code']);
    expect(templateVariables({ category: 'AUTHENTICATION', buttons: [] })).toEqual(['code']);
  });

  it('builds the send components with the values of each variable', () => {
    const send = toGraphSend(
      {
        providerName: 'otb_1',
        category: 'MARKETING',
        languageCode: 'es',
        templateType: 'IMAGE',
        content: 'Hola {{.name}}',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Sí' },
          { type: 'URL', text: 'Ver', url: 'https://a.example.com/{{.slug}}' },
        ],
        mediaId: 'media1',
      },
      { name: 'Ana', slug: 'x1' },
    );
    expect(send).toEqual({
      name: 'otb_1',
      language: { code: 'es' },
      components: [
        { type: 'header', parameters: [{ type: 'image', image: { id: 'media1' } }] },
        { type: 'body', parameters: [{ type: 'text', text: 'Ana' }] },
        { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'x1' }] },
      ],
    });
  });

  it('maps the provider quality ratings to the spec quality', () => {
    expect(['GREEN', 'YELLOW', 'RED', 'UNKNOWN'].map(qualityOf)).toEqual(['HIGH', 'MEDIUM', 'LOW', 'PENDING']);
  });
});
