// One worker thread answering requests by id: started on first use, started again if it dies (the
// requests it held fail), stopped by close(). Its protocol: the thread posts { type: 'ready' } once
// initialised (or { type: 'failed', error }), then answers each { id, payload } with { id, result } or
// { id, error: { name, message } }.

import path from 'node:path';
import { Worker } from 'node:worker_threads';

import { workerScript } from './worker-script';

export interface WorkerRequest<P> {
  id: number;
  payload: P;
}

export type WorkerReply<R> =
  | { type: 'ready' }
  | { type: 'failed'; error: string }
  | { id: number; result: R }
  | { id: number; error: { name: string; message: string } };

export class WorkerError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export class WorkerClient<P, R> {
  private worker?: Promise<Worker>;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: R) => void; reject: (e: Error) => void }>();
  private closed = false;

  constructor(
    /** The worker's path relative to the engines folder, without extension (e.g. 'face/face.worker'), or a built script's absolute path. */
    private readonly script: string,
    private readonly workerData: unknown = {},
  ) {}

  async request(payload: P, transfer: ArrayBuffer[] = []): Promise<R> {
    if (this.closed) throw new Error(`${this.script}: closed`);
    const worker = await this.start();
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref(); // kept alive while it owes an answer
      worker.postMessage({ id, payload } satisfies WorkerRequest<P>, transfer);
    });
  }

  /** Starts the thread now (e.g. to load models at boot) instead of on the first request. */
  async warmUp(): Promise<void> {
    await this.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker.catch(() => undefined))?.terminate();
  }

  private start(): Promise<Worker> {
    this.worker ??= (async () => {
      const script = path.isAbsolute(this.script) ? this.script : await workerScript(this.script);
      const worker = new Worker(script, { workerData: this.workerData });
      worker.unref();
      return new Promise<Worker>((resolve, reject) => {
        let ready = false;
        worker.on('message', (msg: WorkerReply<R>) => {
          if ('type' in msg) {
            if (msg.type === 'ready') {
              ready = true;
              resolve(worker);
            } else reject(new Error(`${this.script} failed to start: ${msg.error}`));
            return;
          }
          const waiter = this.pending.get(msg.id);
          if (!waiter) return;
          this.pending.delete(msg.id);
          if (this.pending.size === 0) worker.unref();
          if ('error' in msg) waiter.reject(new WorkerError(msg.error.name, msg.error.message));
          else waiter.resolve(msg.result);
        });
        const died = (err: Error) => {
          this.worker = undefined;
          for (const waiter of this.pending.values()) waiter.reject(err);
          this.pending.clear();
          if (!ready) reject(err);
        };
        worker.on('error', died);
        worker.on('exit', (code) => died(new Error(`${this.script} exited with code ${code}`)));
      });
    })();
    return this.worker;
  }
}
