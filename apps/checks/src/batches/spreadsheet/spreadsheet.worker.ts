// The thread that reads one batch file (BatchSpreadsheetReader starts one per file): below normal priority, so
// the service's event loop is scheduled first; its heap and its time are bounded by the thread's owner.

import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';

import type { SpreadsheetLimits } from './spreadsheet-limits';
import { readXlsxRows } from './xlsx-reader';

export interface SpreadsheetJob {
  content: Uint8Array;
  columns: (string | null)[];
  limits: SpreadsheetLimits;
  /** Only the count of rows is sent back (the upload needs no more: the rows cross threads once, at load). */
  countOnly: boolean;
}

const port = parentPort;
if (!port) throw new Error('not on a worker thread');
try {
  setPriority(constants.priority.PRIORITY_BELOW_NORMAL);
} catch {
  // Not allowed here (some sandboxes): the thread runs at the service's priority.
}
const job = workerData as SpreadsheetJob;
readXlsxRows(
  Buffer.from(job.content.buffer, job.content.byteOffset, job.content.byteLength),
  job.columns,
  job.limits,
).then(
  (rows) => port.postMessage(job.countOnly ? { count: rows.length } : { rows, count: rows.length }),
  (err: Error) => port.postMessage({ error: { name: err.name, message: err.message } }),
);
