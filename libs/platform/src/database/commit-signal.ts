import { EventEmitter } from 'node:events';

import { EntitySubscriberInterface, EventSubscriber } from 'typeorm';

/**
 * Fires after every committed TypeORM transaction of the process, so the outbox relay and the
 * job queue look for new rows right away. (Not Postgres NOTIFY: a notifying transaction takes a
 * global lock at commit, which serializes commits and their WAL flushes under load.)
 */
export const commitSignal = new EventEmitter();
commitSignal.setMaxListeners(100);

export const signalCommit = () => commitSignal.emit('commit');

/** Registered in every service DataSource (TypeORM only loads subscribers decorated like this). */
@EventSubscriber()
export class CommitSignalSubscriber implements EntitySubscriberInterface {
  afterTransactionCommit(): void {
    signalCommit();
  }
}
