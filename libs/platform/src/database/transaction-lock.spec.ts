import { EntityManager } from 'typeorm';

import { lockForTransaction } from './transaction-lock';

describe('lockForTransaction', () => {
  const recording = () => {
    const calls: unknown[][] = [];
    const manager = { query: async (...args: unknown[]) => void calls.push(args) } as unknown as EntityManager;
    return { manager, calls };
  };

  it('takes one transaction-scoped advisory lock per distinct key, in sorted order', async () => {
    const { manager, calls } = recording();
    await lockForTransaction(manager, 'b|2', 'a|1', 'b|2');
    expect(calls).toEqual([
      ['SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', ['a|1']],
      ['SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', ['b|2']],
    ]);
  });
});
