import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';

import { DEFAULT_ENGINE_NICE, setEngineNice } from '../worker/worker-host';
import { TesseractRecognizer } from './ocr';
import { warmUpPage } from './warm-up';

jest.setTimeout(120_000);

/** The nice value of each thread of this process, by thread id (Linux: /proc/self/task/<tid>/stat, field 19). */
function threadNices(): Map<string, number> {
  return new Map(
    readdirSync('/proc/self/task').map((tid) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    }),
  );
}

const linux = process.platform === 'linux';

describe('TesseractRecognizer threads', () => {
  (linux ? it : it.skip)('run below the priority of the thread that asked for OCR (the event loop)', async () => {
    const before = threadNices();
    const ocr = new TesseractRecognizer();
    try {
      await ocr.warmUp();
      // The threads started meanwhile: both OCR workers' (and any the runtime started, e.g. libuv's pool).
      const started = [...threadNices()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
      expect(started.filter((nice) => nice > getPriority()).length).toBeGreaterThanOrEqual(2);
    } finally {
      await ocr.close();
    }
  });

  (linux ? it : it.skip)('take the nice value setEngineNice gave (VALIDATIONS_ENGINE_NICE)', async () => {
    const nice = Math.max(getPriority(), 15);
    setEngineNice(nice);
    const before = threadNices();
    const ocr = new TesseractRecognizer();
    try {
      await ocr.warmUp();
      const started = [...threadNices()].filter(([tid]) => !before.has(tid)).map(([, n]) => n);
      expect(started.filter((n) => n === nice).length).toBeGreaterThanOrEqual(2);
    } finally {
      setEngineNice(DEFAULT_ENGINE_NICE);
      await ocr.close();
    }
  });
});

describe('TesseractRecognizer close', () => {
  it('lets a read under way end before it terminates the workers, and refuses reads after', async () => {
    const ocr = new TesseractRecognizer();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // Closed while the worker is still starting (the application's warm-up cut short by a shutdown).
      const read = ocr.readText(warmUpPage());
      await ocr.close();
      await expect(read).resolves.toEqual(expect.any(String));
      await expect(ocr.readMrz(warmUpPage())).rejects.toThrow('the OCR engine is closed');
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
