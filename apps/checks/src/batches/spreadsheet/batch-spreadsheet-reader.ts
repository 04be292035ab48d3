import { Worker } from 'node:worker_threads';

import { workerScript } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { ChecksConfig } from '../../config/checks.config';
import type { SpreadsheetJob } from './spreadsheet.worker';
import { SheetRow, SpreadsheetError, SpreadsheetLimits } from './spreadsheet-limits';

/**
 * Reads batch files off the event loop: each file on a thread of its own (below normal priority) with a heap
 * limit and a deadline, at most CHECKS_BATCH_PARSE_CONCURRENCY at once per process (the others wait their
 * turn). A file over a limit, over its time or its memory is a SpreadsheetError; the API keeps answering.
 */
interface ThreadResult {
  rows?: SheetRow[];
  count: number;
}

@Injectable()
export class BatchSpreadsheetReader {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly config: ChecksConfig) {}

  get limits(): SpreadsheetLimits {
    const c = this.config;
    return {
      maxRows: c.CHECKS_BATCH_MAX_ROWS,
      maxSheetRows: c.CHECKS_BATCH_MAX_SHEET_ROWS,
      maxEntryBytes: c.CHECKS_BATCH_MAX_PART_BYTES,
      maxSharedStrings: c.CHECKS_BATCH_MAX_SHARED_STRINGS,
      maxTextChars: c.CHECKS_BATCH_MAX_TEXT_CHARS,
    };
  }

  /** The data rows of the file. */
  async read(content: Buffer, columns: (string | null)[]): Promise<SheetRow[]> {
    return (await this.inTurn({ content, columns, limits: this.limits, countOnly: false })).rows ?? [];
  }

  /** How many data rows the file has (the file read the same way; only the count comes back). */
  async count(content: Buffer, columns: (string | null)[]): Promise<number> {
    return (await this.inTurn({ content, columns, limits: this.limits, countOnly: true })).count;
  }

  private async inTurn(job: SpreadsheetJob): Promise<ThreadResult> {
    if (this.running >= this.config.CHECKS_BATCH_PARSE_CONCURRENCY)
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await this.onThread(job);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private async onThread(job: SpreadsheetJob): Promise<ThreadResult> {
    const script = await workerScript(__dirname, 'spreadsheet.worker', 'checks-spreadsheet');
    const seconds = this.config.CHECKS_BATCH_PARSE_TIMEOUT_MS / 1000;
    return new Promise<ThreadResult>((resolve, reject) => {
      const worker = new Worker(script, {
        workerData: job,
        resourceLimits: {
          maxOldGenerationSizeMb: this.config.CHECKS_BATCH_PARSE_MEMORY_MB,
          maxYoungGenerationSizeMb: 16,
        },
      });
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
        void worker.terminate();
      };
      const timer = setTimeout(
        () =>
          settle(() =>
            reject(new SpreadsheetError(`the file takes longer than ${seconds} s to read (the limit of a batch file)`)),
          ),
        this.config.CHECKS_BATCH_PARSE_TIMEOUT_MS,
      );
      worker.on('message', (msg: ThreadResult | { error: { name: string; message: string } }) =>
        settle(() => {
          if ('count' in msg) return resolve(msg);
          if (msg.error.name === 'SpreadsheetError') return reject(new SpreadsheetError(msg.error.message));
          reject(new SpreadsheetError('the file is not a readable xlsx spreadsheet'));
        }),
      );
      worker.on('error', (err: Error & { code?: string }) =>
        settle(() =>
          reject(
            err.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new SpreadsheetError('the file needs more memory to read than a batch file may use')
              : err,
          ),
        ),
      );
      worker.on('exit', (code) => settle(() => reject(new Error(`the spreadsheet thread exited with code ${code}`))));
    });
  }
}
