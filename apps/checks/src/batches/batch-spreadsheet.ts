import { PassThrough, Readable } from 'node:stream';

import * as ExcelJS from 'exceljs';

export interface SheetRow {
  /** The spreadsheet row number (1-based, as the spreadsheet shows it). */
  rowNumber: number;
  inputs: Record<string, string>;
}

export class SpreadsheetError extends Error {}

/** A cell as text: numbers as written, dates as YYYY-MM-DD, rich text and formula results flattened. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'object') {
    if ('richText' in value)
      return value.richText
        .map((t) => t.text)
        .join('')
        .trim();
    if ('result' in value) return cellText(value.result);
    if ('text' in value) return cellText(value.text);
  }
  return ''; // error cells
}

/**
 * Reads the first worksheet of an xlsx file with the streaming reader: one SheetRow per non-empty
 * row, cells named by `columns` (input per zero-based index). A first row whose cells are the
 * column names is a header and is skipped. More than maxRows rows is an error.
 */
export async function readBatchRows(content: Buffer, columns: (string | null)[], maxRows: number): Promise<SheetRow[]> {
  const rows: SheetRow[] = [];
  let first = true;
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(content), {
      worksheets: 'emit',
      sharedStrings: 'cache',
      styles: 'ignore',
      hyperlinks: 'ignore',
      entries: 'ignore',
    });
    for await (const sheet of reader) {
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        const inputs: Record<string, string> = {};
        columns.forEach((name, i) => {
          if (!name) return;
          const text = cellText(row.getCell(i + 1).value);
          if (text !== '') inputs[name] = text;
        });
        if (!Object.keys(inputs).length) continue;
        if (first) {
          first = false;
          if (Object.entries(inputs).every(([name, text]) => text.toLowerCase() === name)) continue;
        }
        rows.push({ rowNumber: row.number, inputs });
        if (rows.length > maxRows) throw new SpreadsheetError(`the file has more than ${maxRows} rows`);
      }
      break; // the first worksheet only
    }
  } catch (err) {
    if (err instanceof SpreadsheetError) throw err;
    throw new SpreadsheetError('the file is not a readable xlsx spreadsheet');
  }
  return rows;
}

/** Writes rows (header first) as an xlsx file with the streaming writer. */
export async function writeXlsx(header: string[], rows: (string | number | null)[][]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('report');
  sheet.addRow(header).commit();
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
  await done;
  return Buffer.concat(chunks);
}
