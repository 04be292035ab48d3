// OCR with tesseract.js (Tesseract 5 compiled to WebAssembly, on its own worker threads), the English
// LSTM model from the @tesseract.js-data/eng npm package read from node_modules: no network, no CDN.
// Two workers: one restricted to the MRZ alphabet (A-Z, 0-9, <) for the machine-readable zone, one
// unrestricted for the visual zone (manipulation check). Each is created on first use and serves one
// image at a time (tesseract.js queues the rest); their threads run below normal priority (ocr.worker.ts).

import path from 'node:path';

import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';

import { workerScript } from '../worker/worker-script';

export interface OcrOptions {
  /** Directory holding eng.traineddata.gz (default: the @tesseract.js-data/eng package's 4.0.0_best_int). */
  langPath?: string;
}

/** Images are encoded (PGM, PNG or JPEG: whatever Leptonica reads). */
export interface TextRecognizer {
  /** MRZ alphabet only (A-Z, 0-9, <), one uniform block of text. */
  readMrz(image: Buffer): Promise<string>;
  /** Any text (the visual zone), page segmentation automatic. */
  readText(image: Buffer): Promise<string>;
  close(): Promise<void>;
}

export function defaultLangPath(): string {
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

export class TesseractRecognizer implements TextRecognizer {
  private mrzWorker?: Promise<Worker>;
  private textWorker?: Promise<Worker>;
  private closed = false;
  private readonly reading = new Set<Promise<string>>();

  constructor(private readonly options: OcrOptions = {}) {}

  private start(params: Record<string, string>): Promise<Worker> {
    if (this.closed) return Promise.reject(new Error('the OCR engine is closed'));
    return (async () => {
      const worker = await createWorker('eng', OEM.LSTM_ONLY, {
        // tesseract.js's thread, started below normal priority like the engines' other threads (ocr.worker.ts).
        workerPath: await workerScript('document/ocr.worker'),
        langPath: this.options.langPath ?? defaultLangPath(),
        cacheMethod: 'none',
        gzip: true,
      });
      // A fixed resolution: the images are normalised to ~1400 px wide (and it silences tesseract's estimate).
      await worker.setParameters({ user_defined_dpi: '300', ...params });
      return worker;
    })();
  }

  private mrz(): Promise<Worker> {
    this.mrzWorker ??= this.start({
      tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<',
      tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
      // An MRZ is dark print on a light ground: no line is read a second time inverted (Tesseract 5 does it for
      // lines read with low confidence), 5-10 % of the MRZ reads' CPU on the test documents, same text.
      tessedit_do_invert: '0',
    });
    return this.mrzWorker;
  }

  private text(): Promise<Worker> {
    this.textWorker ??= this.start({ tessedit_pageseg_mode: PSM.AUTO });
    return this.textWorker;
  }

  /** Starts both workers now (model loaded) instead of on the first read. */
  async warmUp(): Promise<void> {
    if (this.closed) return;
    await Promise.all([this.mrz(), this.text()]);
  }

  readMrz(image: Buffer): Promise<string> {
    return this.read(() => this.mrz(), image);
  }

  readText(image: Buffer): Promise<string> {
    return this.read(() => this.text(), image);
  }

  /**
   * A read counts until it ends, so close() terminates no worker under it: tesseract.js posts a job to a
   * terminated worker from a promise nobody awaits (an unhandled rejection) and never settles the read.
   */
  private async read(worker: () => Promise<Worker>, image: Buffer): Promise<string> {
    if (this.closed) throw new Error('the OCR engine is closed');
    const read = worker().then(async (w) => (await w.recognize(image)).data.text);
    this.reading.add(read);
    try {
      return await read;
    } finally {
      this.reading.delete(read);
    }
  }

  /** Refuses new reads, lets those under way end, then terminates the workers. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.reading]);
    const workers = [this.mrzWorker, this.textWorker].filter((w): w is Promise<Worker> => w !== undefined);
    this.mrzWorker = this.textWorker = undefined;
    await Promise.all(workers.map(async (w) => (await w).terminate()));
  }
}
