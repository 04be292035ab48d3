import { GroupCommit } from './group-commit';

/** A controllable run(): records each batch and resolves it when told to. */
function recorder<I>(result: (item: I) => unknown = (item) => item) {
  const batches: I[][] = [];
  const pending: { resolve: () => void; reject: (err: Error) => void }[] = [];
  const run = (items: I[]) =>
    new Promise<unknown[]>((resolve, reject) => {
      batches.push(items);
      pending.push({ resolve: () => resolve(items.map(result)), reject });
    });
  return { batches, pending, run };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('GroupCommit', () => {
  it('runs a lone item at once, in a batch of one', async () => {
    const r = recorder<number>((n) => n * 10);
    const group = new GroupCommit(r.run, { maxBatch: 10, maxInFlight: 1 });
    const answer = group.submit(1);
    await turn();
    expect(r.batches).toEqual([[1]]);
    r.pending[0].resolve();
    await expect(answer).resolves.toBe(10);
  });

  it('puts the items that arrive while maxInFlight batches run into the next batch, in order, each caller getting its own result', async () => {
    const r = recorder<number>((n) => `r${n}`);
    const group = new GroupCommit(r.run, { maxBatch: 10, maxInFlight: 1 });
    const first = group.submit(1);
    await turn();
    const later = [2, 3, 4].map((n) => group.submit(n));
    await turn();
    expect(r.batches).toEqual([[1]]); // still one in flight
    expect(group.waiting).toBe(3);
    r.pending[0].resolve();
    await expect(first).resolves.toBe('r1');
    await turn();
    expect(r.batches).toEqual([[1], [2, 3, 4]]);
    r.pending[1].resolve();
    await expect(Promise.all(later)).resolves.toEqual(['r2', 'r3', 'r4']);
  });

  it('never exceeds maxBatch items or maxInFlight batches', async () => {
    const r = recorder<number>();
    const group = new GroupCommit(r.run, { maxBatch: 2, maxInFlight: 2 });
    const all = [1, 2, 3, 4, 5].map((n) => group.submit(n));
    await turn();
    expect(r.batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    r.pending[0].resolve();
    await turn();
    await turn();
    expect(r.batches).toEqual([[1, 2], [3, 4], [5]]);
    r.pending[1].resolve();
    r.pending[2].resolve();
    await expect(Promise.all(all)).resolves.toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps an item that must see an earlier one of its key out of its batch, and items after it in order', async () => {
    const r = recorder<string>();
    // The key is the first letter; every item must see earlier ones of its key.
    const group = new GroupCommit(r.run, {
      maxBatch: 10,
      maxInFlight: 1,
      ordering: { key: (s) => s[0], mustSeeEarlier: () => true },
    });
    const all = ['a1', 'b1', 'a2', 'c1', 'a3'].map((s) => group.submit(s));
    await turn();
    expect(r.batches).toEqual([['a1', 'b1', 'c1']]);
    r.pending[0].resolve();
    await turn();
    await turn();
    expect(r.batches[1]).toEqual(['a2']);
    r.pending[1].resolve();
    await turn();
    await turn();
    expect(r.batches[2]).toEqual(['a3']);
    r.pending[2].resolve();
    await expect(Promise.all(all)).resolves.toEqual(['a1', 'b1', 'a2', 'c1', 'a3']);
  });

  it('holds an item back while an earlier one of its key is being stored, unless it need not see it', async () => {
    const r = recorder<string>();
    // 'x!' items need not see earlier ones (like a forced creation).
    const group = new GroupCommit(r.run, {
      maxBatch: 10,
      maxInFlight: 4,
      ordering: { key: (s) => s[0], mustSeeEarlier: (s) => !s.endsWith('!') },
    });
    const first = group.submit('a1');
    await turn();
    expect(r.batches).toEqual([['a1']]);
    const rest = ['a2', 'a3!', 'b1'].map((s) => group.submit(s));
    await turn();
    // a2 waits for a1's batch although batches are free; a3! stays behind a2 (order within a key); b1 goes.
    expect(r.batches).toEqual([['a1'], ['b1']]);
    r.pending[0].resolve();
    r.pending[1].resolve();
    await turn();
    await turn();
    // a3! need not see a2: they share the next batch.
    expect(r.batches[2]).toEqual(['a2', 'a3!']);
    r.pending[2].resolve();
    await expect(Promise.all([first, ...rest])).resolves.toEqual(['a1', 'a2', 'a3!', 'b1']);
  });

  it('when a batch fails, runs each of its items alone so only the bad one fails', async () => {
    const seen: number[][] = [];
    const group = new GroupCommit<number, number>(
      async (items) => {
        seen.push(items);
        if (items.includes(2)) throw new Error(`bad item in ${items.join(',')}`);
        return items;
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const results = await Promise.allSettled([1, 2, 3].map((n) => group.submit(n)));
    expect(seen).toEqual([[1, 2, 3], [1], [2], [3]]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('bad item in 2');
  });

  it('rejects every caller when run() answers the wrong number of results', async () => {
    const group = new GroupCommit<number, number>(async () => [], { maxBatch: 10, maxInFlight: 1 });
    await expect(group.submit(1)).rejects.toThrow('0 results for 1 items');
  });
});
