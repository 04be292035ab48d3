import { DataSource } from 'typeorm';

import { commitSignal, CommitSignalSubscriber } from './commit-signal';
import { serviceDataSourceOptions } from './data-source';

describe('commit signal', () => {
  it('is a subscriber TypeORM actually loads into every service DataSource', async () => {
    const ds = new DataSource(
      serviceDataSourceOptions({ url: 'postgres://x', schema: 's', entities: [], migrations: [] }),
    );
    await (ds as any).buildMetadatas();
    expect(ds.subscribers.some((s) => s instanceof CommitSignalSubscriber)).toBe(true);
  });

  it('fires after a transaction commits', () => {
    const seen = jest.fn();
    commitSignal.on('commit', seen);
    new CommitSignalSubscriber().afterTransactionCommit();
    commitSignal.off('commit', seen);
    expect(seen).toHaveBeenCalledTimes(1);
  });
});
