/** A file that is not a readable xlsx, or goes over one of the limits: its message is shown to the client. */
export class SpreadsheetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpreadsheetError';
  }
}

/** What reading one batch file may cost (CHECKS_BATCH_* settings). */
export interface SpreadsheetLimits {
  /** Data rows (non-empty, the header excluded). */
  maxRows: number;
  /** Rows read from the sheet, empty ones included. */
  maxSheetRows: number;
  /** Uncompressed bytes of any one part of the file (the sheet, the shared strings...). */
  maxEntryBytes: number;
  /** Shared strings (distinct texts) of the workbook. */
  maxSharedStrings: number;
  /** Characters of one text (a shared string or a cell). */
  maxTextChars: number;
}

export interface SheetRow {
  /** The spreadsheet row number (1-based, as the spreadsheet shows it). */
  rowNumber: number;
  inputs: Record<string, string>;
}
