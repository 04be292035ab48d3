import { html } from './html';
import { pageLanguage } from './page-language';

describe('pageLanguage', () => {
  it('takes the first supported language of the first candidate that has one', () => {
    expect(pageLanguage('pt-BR en', 'en-US,en;q=0.9')).toBe('pt');
    expect(pageLanguage(undefined, 'fr-FR, en-GB;q=0.8, es;q=0.5')).toBe('en');
    expect(pageLanguage('de', 'pt-PT')).toBe('pt');
  });

  it('is Spanish when nothing supported is asked for', () => {
    expect(pageLanguage(undefined, undefined)).toBe('es');
    expect(pageLanguage('', '*')).toBe('es');
    expect(pageLanguage('fr', 'de-DE')).toBe('es');
  });
});

describe('html', () => {
  it('escapes every interpolated value but fragments built with html', () => {
    const name = '<script>"x"</script>';
    expect(html`<p title="${name}">${name}${html`<b>ok</b>`}</p>`.value).toBe(
      '<p title="&lt;script&gt;&quot;x&quot;&lt;/script&gt;">&lt;script&gt;&quot;x&quot;&lt;/script&gt;<b>ok</b></p>',
    );
  });
});
