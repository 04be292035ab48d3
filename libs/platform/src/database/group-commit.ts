export interface GroupCommitOptions<I> {
  /** Most items in one batch. */
  maxBatch: number;
  /** Most batches running at once; items submitted meanwhile wait for the next one. */
  maxInFlight: number;
  /**
   * Items that must see each other committed (e.g. to be de-duplicated against an earlier one):
   * `key` names what an item writes, and an item for which `mustSeeEarlier` is true neither
   * shares a batch with, nor runs while storing, an earlier item of the same key: it waits for a
   * later batch, keeping submission order.
   */
  ordering?: { key: (item: I) => string; mustSeeEarlier: (item: I) => boolean };
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for a hot write path: many concurrent callers' items go to the database as one
 * multi-row statement (one round trip, one parse, one commit and WAL flush for the lot) instead
 * of one statement each. A caller alone gets a batch of one at once (the next event-loop turn);
 * under load, items submitted while `maxInFlight` batches run wait and go together in the next.
 *
 * `run(items)` must return one result per item, in order, and is all-or-nothing (one statement or
 * transaction). When a batch of several fails, each of its items is run again alone, so one bad
 * item fails only its own caller.
 */
export class GroupCommit<I, O> {
  private readonly queue: Waiting<I, O>[] = [];
  /** Keys of the items of the batches running now, with their counts (only with `ordering`). */
  private readonly storing = new Map<string, number>();
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly options: GroupCommitOptions<I>,
  ) {
    if (options.maxBatch < 1 || options.maxInFlight < 1)
      throw new Error('GroupCommit needs maxBatch and maxInFlight of at least 1');
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Items waiting for a batch (for tests and metrics). */
  get waiting(): number {
    return this.queue.length;
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.options.maxInFlight || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length) {
      const batch = this.take();
      if (!batch.length) return; // every waiting item waits for a running batch
      this.inFlight++;
      const keys = this.options.ordering ? batch.map((w) => this.options.ordering!.key(w.item)) : [];
      for (const k of keys) this.storing.set(k, (this.storing.get(k) ?? 0) + 1);
      void this.execute(batch).finally(() => {
        this.inFlight--;
        for (const k of keys) {
          const n = this.storing.get(k)! - 1;
          if (n) this.storing.set(k, n);
          else this.storing.delete(k);
        }
        this.schedule();
      });
    }
  }

  /** The next batch: queued items in order, up to maxBatch, leaving those that must see an earlier item of their key (taken, left or being stored). */
  private take(): Waiting<I, O>[] {
    const { maxBatch, ordering } = this.options;
    if (!ordering) return this.queue.splice(0, maxBatch);
    const batch: Waiting<I, O>[] = [];
    const left: Waiting<I, O>[] = [];
    const earlier = new Set<string>(); // keys of the items looked at so far
    const leftKeys = new Set<string>(); // once an item is left, later items of its key stay behind it
    for (const w of this.queue) {
      const key = ordering.key(w.item);
      const blocked =
        leftKeys.has(key) || (ordering.mustSeeEarlier(w.item) && (earlier.has(key) || this.storing.has(key)));
      if (batch.length < maxBatch && !blocked) batch.push(w);
      else {
        left.push(w);
        leftKeys.add(key);
      }
      earlier.add(key);
    }
    this.queue.splice(0, this.queue.length, ...left);
    return batch;
  }

  private async execute(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const results = await this.run(batch.map((w) => w.item));
      if (results.length !== batch.length)
        throw new Error(`GroupCommit: ${results.length} results for ${batch.length} items`);
      batch.forEach((w, i) => w.resolve(results[i]));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      // Nothing of the batch was stored: each item again on its own, so only a bad one fails.
      await Promise.all(batch.map((w) => this.execute([w])));
    }
  }
}
