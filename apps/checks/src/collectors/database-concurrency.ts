import type { Collector, CollectorContext, CollectorOutcome } from './collector';

/** A counting semaphore: at most `limit` calls run at once, the others wait in arrival order. */
class Semaphore {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * A collector that asks its database at most `limit` times at once in this process. Collector
 * jobs are mostly waits on the database's answer, so a process runs many of them at once
 * (CHECKS_WORKER_CONCURRENCY); this keeps any one database (a government source with its own
 * rate limits) to CHECKS_COLLECTOR_CONCURRENCY_PER_DATABASE of them. Everything else is the
 * collector's own (its prototype).
 */
export function limitPerDatabase(collector: Collector, limit: number): Collector {
  const semaphore = new Semaphore(limit);
  const limited = Object.create(collector) as Collector;
  Object.defineProperty(limited, 'collect', {
    value: (ctx: CollectorContext): Promise<CollectorOutcome> => semaphore.run(() => collector.collect(ctx)),
  });
  return limited;
}
