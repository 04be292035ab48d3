import { csvField, csvLine } from './segment-export';

describe('segment export CSV', () => {
  it('quotes commas, quotes and line breaks, and leaves plain text alone', () => {
    expect(csvLine(['CUS1', 'Perez, Ana', 'say "hi"', 'two\nlines', null, 0.8])).toBe(
      'CUS1,"Perez, Ana","say ""hi""","two\nlines",,0.8\r\n',
    );
  });

  it('defuses text a spreadsheet would run as a formula, but keeps phone numbers and negative numbers', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-cmd|calc')).toBe("'-cmd|calc");
    expect(csvField('+573001234567')).toBe('+573001234567');
    expect(csvField('-12.5')).toBe('-12.5');
  });
});
