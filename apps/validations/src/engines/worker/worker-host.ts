// The thread side of WorkerClient: initialise, say ready, answer each request.

import { constants, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';

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

/**
 * Engines are background work: their thread runs below normal priority (Linux keeps the nice value per thread, and
 * threads the engine's native libraries start inherit it), so when the machine is busy the service's event loop,
 * which answers the API, is scheduled first; an idle machine still gives the engine all the CPU it can use.
 * Also called first thing by threads started by a library (document/ocr.worker.ts).
 */
export function yieldToRequests(): void {
  try {
    setPriority(constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Not allowed here (some sandboxes): the engine runs at the service's priority.
  }
}
