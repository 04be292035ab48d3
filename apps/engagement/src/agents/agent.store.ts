import { rawQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import * as SQL from './agent.sql';

/**
 * The raw statements of agents and their tenant's agent settings, their SQL in agent.sql.ts.
 * Each method runs its statement on the manager it is given (the caller's transaction, or the data
 * source's manager) and answers what the driver answers (for an UPDATE/DELETE: [rows, affected]).
 */
@Injectable()
export class AgentStore {
  private run<T>(m: EntityManager, sql: string, values: unknown[]): Promise<T> {
    return rawQuery(m.connection, sql, values, m) as unknown as Promise<T>;
  }

  /** Per queue or group of a tenant ($1): agents online and offline, chats waiting and being worked. */
  groupCounters<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.GROUP_COUNTERS, values);
  }

  /** A tenant's ($1) agents online and offline and open chats waiting and assigned. */
  totals<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.TOTALS, values);
  }

  /** Adds an offline agent ($1 tenant, $2 e-mail, $3 user, $4 now) unless the e-mail is one. */
  insertIfAbsent<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.INSERT_IF_ABSENT, values);
  }

  /** The tenant's agent settings with these values unless it has them ($1 tenant, $2-$4 values, $5 now). */
  insertSettingsIfAbsent<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.INSERT_SETTINGS_IF_ABSENT, values);
  }

  /** Counts a chat given to an agent ($1 tenant, $2 e-mail, $3 now). */
  countAssigned<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.COUNT_ASSIGNED, values);
  }

  /** Frees the capacity a chat held on its owner ($1 tenant, $2 e-mail, $3 now). */
  release<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.RELEASE, values);
  }

  /** Locks the tenant's ($1) agents of these e-mails ($2), in e-mail order. */
  lockAgents<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.LOCK_AGENTS, values);
  }

  /** A row when the agent ($1 tenant, $2 e-mail) has room ($3 capacity enabled, $4 default capacity). */
  hasRoom<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.HAS_ROOM, values);
  }

  /** A free agent for a chat: `order` one of the ruleset strategies' constant ORDER BY texts, `lock` '' or a constant locking clause. */
  freeAgent(m: EntityManager, order: string, lock: string, values: unknown[]): Promise<{ email: string }[]> {
    return this.run<{ email: string }[]>(m, SQL.freeAgentSql(order, lock), values);
  }
}
