// Reads the first worksheet of an xlsx batch file within limits (SpreadsheetLimits): every part is inflated as a
// stream that stops at maxEntryBytes, the shared strings are read whole (count and length bounded) BEFORE the
// sheet whatever the order of the parts in the zip, and the sheet is scanned as a stream counting every row,
// empty ones included. A cell that names a shared string the file does not have is an error, never an empty cell.

import { SheetRow, SpreadsheetError, SpreadsheetLimits } from './spreadsheet-limits';
import { attr, scanXml, XmlHandler } from './xml-scanner';
import { entryChunks, zipEntries, ZipEntry } from './zip-entries';

/** Parts an xlsx may have (a sheet per worksheet, media, styles...); more is not a batch file. */
const MAX_PARTS = 10_000;
const NOT_XLSX = 'the file is not a readable xlsx spreadsheet';

/**
 * One SheetRow per non-empty row of the first worksheet, cells named by `columns` (input per zero-based index).
 * A first row whose cells are the column names is a header and is skipped. Texts are trimmed; numbers as
 * written; booleans true/false; dates (t="d") as YYYY-MM-DD; error cells empty.
 */
export async function readXlsxRows(
  zip: Buffer,
  columns: (string | null)[],
  limits: SpreadsheetLimits,
): Promise<SheetRow[]> {
  const entries = zipEntries(zip, MAX_PARTS);
  const part = (name: string) =>
    entries.get(name) ?? [...entries.values()].find((e) => e.name.toLowerCase() === name.toLowerCase());
  const rels = await relationships(zip, part('xl/_rels/workbook.xml.rels'), limits);
  const sheetName = await firstSheet(zip, part('xl/workbook.xml'), rels, limits);
  const sheet = part(sheetName);
  if (!sheet) throw new SpreadsheetError(NOT_XLSX);
  const stringsTarget = [...rels.values()].find((r) => r.type.endsWith('/sharedStrings'))?.target;
  const strings = await sharedStrings(zip, part(stringsTarget ?? 'xl/sharedStrings.xml'), limits);
  return sheetRows(zip, sheet, strings, columns, limits);
}

interface Relationship {
  type: string;
  target: string;
}

/** The workbook's relationships by id, their targets as zip part names. */
async function relationships(zip: Buffer, entry: ZipEntry | undefined, limits: SpreadsheetLimits) {
  const rels = new Map<string, Relationship>();
  if (!entry) return rels;
  await scanXml(
    entryChunks(zip, entry, limits.maxEntryBytes),
    {
      open(name, attrs) {
        if (name !== 'Relationship') return;
        const id = attr(attrs, 'Id');
        const target = attr(attrs, 'Target');
        if (!id || !target) return;
        rels.set(id, {
          type: attr(attrs, 'Type') ?? '',
          target: target.startsWith('/') ? target.slice(1) : normalise(`xl/${target}`),
        });
      },
      close() {},
      text() {},
    },
    entry.name,
  );
  return rels;
}

/** The part of the first worksheet the workbook lists (xl/worksheets/sheet1.xml when it does not say). */
async function firstSheet(
  zip: Buffer,
  entry: ZipEntry | undefined,
  rels: Map<string, Relationship>,
  limits: SpreadsheetLimits,
): Promise<string> {
  let id: string | undefined;
  if (entry)
    await scanXml(
      entryChunks(zip, entry, limits.maxEntryBytes),
      {
        open(name, attrs) {
          if (name === 'sheet' && id === undefined)
            id = attr(attrs, 'r:id') ?? /\s[\w]+:id\s*=\s*"([^"]*)"/.exec(attrs)?.[1];
        },
        close() {},
        text() {},
      },
      entry.name,
    );
  return (id && rels.get(id)?.target) || 'xl/worksheets/sheet1.xml';
}

/** The shared strings in order (rich text runs joined, phonetic runs left out). */
async function sharedStrings(zip: Buffer, entry: ZipEntry | undefined, limits: SpreadsheetLimits): Promise<string[]> {
  const strings: string[] = [];
  if (!entry) return strings;
  let current: string | undefined;
  let inText = false;
  let phonetic = 0;
  const handler: XmlHandler = {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 't') inText = true;
      else if (name === 'rPh') phonetic++;
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si' && current !== undefined) {
        if (strings.length >= limits.maxSharedStrings)
          throw new SpreadsheetError(
            `the file has more than ${limits.maxSharedStrings} distinct texts (shared strings)`,
          );
        strings.push(current);
        current = undefined;
      }
    },
    text(text) {
      if (!inText || phonetic > 0 || current === undefined) return;
      current += text;
      if (current.length > limits.maxTextChars)
        throw new SpreadsheetError(`the file has a text longer than ${limits.maxTextChars} characters`);
    },
  };
  await scanXml(entryChunks(zip, entry, limits.maxEntryBytes), handler, entry.name);
  return strings;
}

async function sheetRows(
  zip: Buffer,
  entry: ZipEntry,
  strings: string[],
  columns: (string | null)[],
  limits: SpreadsheetLimits,
): Promise<SheetRow[]> {
  const rows: SheetRow[] = [];
  let sheetRowsRead = 0;
  let rowNumber = 0;
  let cells: (string | undefined)[] = [];
  let column = -1;
  let cellType = '';
  let cellRef = '';
  let value: string | undefined; // the text of the cell being read (a mapped column only)
  let inValue = false;
  let inInline = false;
  let inText = false;
  let phonetic = 0;
  let first = true;

  const endRow = () => {
    const inputs: Record<string, string> = {};
    columns.forEach((name, i) => {
      const text = cells[i];
      if (name && text) inputs[name] = text;
    });
    cells = [];
    if (!Object.keys(inputs).length) return;
    if (first) {
      first = false;
      if (Object.entries(inputs).every(([name, text]) => text.toLowerCase() === name)) return;
    }
    rows.push({ rowNumber, inputs });
    if (rows.length > limits.maxRows) throw new SpreadsheetError(`the file has more than ${limits.maxRows} rows`);
  };
  const endCell = () => {
    if (value === undefined) return;
    cells[column] = cellText(cellType, value, strings, cellRef || `${columnName(column)}${rowNumber}`);
    value = undefined;
  };
  const handler: XmlHandler = {
    open(name, attrs) {
      switch (name) {
        case 'row': {
          if (++sheetRowsRead > limits.maxSheetRows)
            throw new SpreadsheetError(
              `the file has more than ${limits.maxSheetRows} rows in its sheet (empty rows included)`,
            );
          const r = Number(attr(attrs, 'r'));
          rowNumber = Number.isSafeInteger(r) && r > 0 ? r : rowNumber + 1;
          cells = [];
          column = -1;
          return;
        }
        case 'c': {
          cellRef = attr(attrs, 'r') ?? '';
          const fromRef = columnIndex(cellRef);
          column = fromRef ?? column + 1;
          cellType = attr(attrs, 't') ?? 'n';
          value = column < columns.length && columns[column] ? '' : undefined;
          return;
        }
        case 'v':
          inValue = true;
          return;
        case 'is':
          inInline = true;
          return;
        case 't':
          inText = inInline;
          return;
        case 'rPh':
          phonetic++;
          return;
      }
    },
    close(name) {
      switch (name) {
        case 'row':
          return endRow();
        case 'c':
          return endCell();
        case 'v':
          inValue = false;
          return;
        case 'is':
          inInline = false;
          return;
        case 't':
          inText = false;
          return;
        case 'rPh':
          phonetic--;
          return;
      }
    },
    text(text) {
      if (value === undefined) return;
      if (inValue || (inText && phonetic === 0)) {
        value += text;
        if (value.length > limits.maxTextChars)
          throw new SpreadsheetError(`the file has a text longer than ${limits.maxTextChars} characters`);
      }
    },
  };
  await scanXml(entryChunks(zip, entry, limits.maxEntryBytes), handler, entry.name);
  return rows;
}

/** A cell's value as text, by its type (t). */
function cellText(type: string, raw: string, strings: string[], ref: string): string {
  if (!raw.trim()) return '';
  switch (type) {
    case 's': {
      const index = Number(raw);
      if (!Number.isSafeInteger(index) || index < 0 || index >= strings.length)
        throw new SpreadsheetError(
          `cell ${ref} names text ${raw.trim()} of the shared strings, which the file does not have`,
        );
      return strings[index].trim();
    }
    case 'b':
      return raw.trim() === '1' ? 'true' : raw.trim() === '0' ? 'false' : '';
    case 'e':
      return '';
    case 'd':
      return raw.trim().slice(0, 10);
    case 'n': {
      const text = raw.trim();
      if (!text) return '';
      const n = parseFloat(text);
      return Number.isNaN(n) ? text : String(n);
    }
    default: // inlineStr, str (a formula's text result)
      return raw.trim();
  }
}

/** Zero-based column of a cell reference (B7 -> 1), or undefined without one. */
function columnIndex(ref: string): number | undefined {
  const letters = /^\$?([A-Za-z]{1,3})/.exec(ref)?.[1];
  if (!letters) return undefined;
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** xl/worksheets/../x.xml -> xl/x.xml */
function normalise(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/'))
    if (seg === '..') out.pop();
    else if (seg !== '.' && seg !== '') out.push(seg);
  return out.join('/');
}
