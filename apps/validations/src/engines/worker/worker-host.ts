// The thread side of WorkerClient: initialise, say ready, answer each request.

import { parentPort } from 'node:worker_threads';

import type { WorkerReply, WorkerRequest } from './worker-client';

export function serve<P, R>(
  init: () => Promise<void>,
  handle: (payload: P) => Promise<{ result: R; transfer?: ArrayBuffer[] }>,
): void {
  const port = parentPort;
  if (!port) throw new Error('not on a worker thread');
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
