// The thread side of WorkerClient: initialise, say ready, answer each request.

import { setPriority } from 'node:os';
import { getEnvironmentData, parentPort, setEnvironmentData } from 'node:worker_threads';

import type { WorkerReply, WorkerRequest } from './worker-client';

export function serve<P, R>(
  init: () => Promise<void>,
  handle: (payload: P) => Promise<{ result: R; transfer?: ArrayBuffer[] }>,
): void {
  const port = parentPort;
  if (!port) throw new Error('not on a worker thread');
  yieldToRequests();
  init().then(
    () => {
      port.postMessage({ type: 'ready' } satisfies WorkerReply<R>);
      port.on('message', (msg: WorkerRequest<P>) => {
        handle(msg.payload).then(
          ({ result, transfer }) => port.postMessage({ id: msg.id, result } satisfies WorkerReply<R>, transfer ?? []),
          (err: Error) =>
            port.postMessage({
              id: msg.id,
              error: { name: err.name ?? 'Error', message: err.message ?? String(err) },
            } satisfies WorkerReply<R>),
        );
      });
    },
    (err: Error) => port.postMessage({ type: 'failed', error: err.message } satisfies WorkerReply<R>),
  );
}

/** The engine threads' nice value when setEngineNice was not called (VALIDATIONS_ENGINE_NICE's default). */
export const DEFAULT_ENGINE_NICE = 10;
const ENGINE_NICE_KEY = 'kyc.validations.engine-nice';

/**
 * The nice value (0-19) of the engine threads started from now on: kept in the process's environment data,
 * which Node copies into every thread started afterwards, tesseract.js's included (EngineThreads sets it
 * from VALIDATIONS_ENGINE_NICE before any engine thread starts).
 */
export function setEngineNice(nice: number): void {
  setEnvironmentData(ENGINE_NICE_KEY, nice);
}

/**
 * Engines are background work: their thread runs below normal priority (Linux keeps the nice value per thread, and
 * threads the engine's native libraries start inherit it), so when the machine is busy the service's event loop,
 * which answers the API, is scheduled first; an idle machine still gives the engine all the CPU it can use.
 * The value is setEngineNice's (default DEFAULT_ENGINE_NICE; 0 keeps the service's priority).
 * Also called first thing by threads started by a library (document/ocr.worker.ts).
 */
export function yieldToRequests(): void {
  const nice = getEnvironmentData(ENGINE_NICE_KEY);
  try {
    setPriority(typeof nice === 'number' ? nice : DEFAULT_ENGINE_NICE);
  } catch {
    // Not allowed here (some sandboxes): the engine runs at the service's priority.
  }
}
