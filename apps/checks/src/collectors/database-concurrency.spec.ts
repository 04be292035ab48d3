import type { Collector, CollectorOutcome } from './collector';
import { limitPerDatabase } from './database-concurrency';

describe('limitPerDatabase', () => {
  it('asks one database at most `limit` times at once, queueing the rest, and keeps the collector as it is', async () => {
    let running = 0;
    let peak = 0;
    const collector = {
      databaseId: 'db1',
      databaseName: 'DB 1',
      collect: async () => {
        peak = Math.max(peak, ++running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return { kind: 'found' } as unknown as CollectorOutcome;
      },
    } as unknown as Collector;
    const limited = limitPerDatabase(collector, 3);
    expect(limited.databaseId).toBe('db1');
    expect(limited.databaseName).toBe('DB 1');
    const answers = await Promise.all(Array.from({ length: 20 }, () => limited.collect({} as never)));
    expect(answers).toHaveLength(20);
    expect(peak).toBe(3);
  });
});
