import type { ServerResponse } from 'node:http';

/** After the last moment this many requests were in flight, the process still counts as busy for this long. */
const HOLD_MS = 250;

/**
 * The HTTP requests this process is serving right now. Background work yields to them: when
 * `yieldAt` or more are in flight (or were within the last 250 ms), callers are queueing for the
 * process, and the job queue runs at its floor instead of competing with them for the CPU and the
 * database (JobQueueService). 0 turns yielding off.
 */
export class ForegroundLoad {
  private inFlight = 0;
  private busyUntil = 0;
  yieldAt = 0;

  started(): void {
    this.inFlight++;
    if (this.yieldAt > 0 && this.inFlight >= this.yieldAt) this.busyUntil = Date.now() + HOLD_MS;
  }

  finished(): void {
    this.inFlight--;
  }

  /**
   * Counts a request until its response closes (the HTTP server calls this for every request), or
   * until the response turns into a stream (`streaming`), whichever comes first, once.
   */
  track(res: ServerResponse): void {
    this.started();
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      this.finished();
    };
    releases.set(res, release);
    res.once('close', release);
  }

  /**
   * A response that became a long-lived stream (server-sent events) stops counting as load: it
   * waits idle for events for minutes, and a few open consoles would otherwise keep the process
   * "busy" for good and every yielding job queue at its floor (one job a poll).
   */
  streaming(res: ServerResponse): void {
    releases.get(res)?.();
  }

  get current(): number {
    return this.inFlight;
  }

  get busy(): boolean {
    return this.yieldAt > 0 && (this.inFlight >= this.yieldAt || Date.now() < this.busyUntil);
  }
}

const releases = new WeakMap<ServerResponse, () => void>();

/** The process's one ForegroundLoad, fed by the HTTP server (createServiceApp). */
export const foregroundLoad = new ForegroundLoad();
