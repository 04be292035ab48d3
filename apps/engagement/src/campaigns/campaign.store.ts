import { rawQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import * as SQL from './campaign.sql';

/**
 * The raw statements of a campaign's recipients, their SQL in campaign.sql.ts.
 * Each method runs its statement on the manager it is given (the caller's transaction, or the data
 * source's manager) and answers what the driver answers (for an UPDATE/DELETE: [rows, affected]).
 */
@Injectable()
export class CampaignStore {
  private run<T>(m: EntityManager, sql: string, values: unknown[]): Promise<T> {
    return rawQuery(m.connection, sql, values, m) as unknown as Promise<T>;
  }

  /** Locks the tenant's ($2) campaign recipients of these message ids ($1), in message id order. */
  lockByMessage<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.LOCK_RECIPIENTS_BY_MESSAGE, values);
  }

  /** Puts back to pending a campaign's ($1) sends claimed before $2 and never confirmed, unless webhooks are stuck (one received since $3 unprocessed). */
  releaseUnconfirmed<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.RELEASE_UNCONFIRMED, values);
  }

  /** Claims up to $2 pending recipients of a campaign ($1) at $3, each with its message id: [rows, count]. */
  claim<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.CLAIM, values);
  }

  /** Records a send the provider refused ($1 campaign, $2 seq, $3 status, $4 error). */
  refused<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.REFUSED, values);
  }

  /** Locks a recipient ($1 campaign, $2 seq) and answers its status. */
  lockRecipient<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.LOCK_RECIPIENT, values);
  }

  /** A campaign's ($1) recipients per status. */
  progress<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.PROGRESS, values);
  }
}
