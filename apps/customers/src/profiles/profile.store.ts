import { rawQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import * as SQL from './profile.sql';

/** Reads of the profile aggregate that QueryBuilder cannot say (ProfileFoldingStore writes it). */
@Injectable()
export class ProfileStore {
  constructor(private readonly dataSource: DataSource) {}

  /** The profile an identifier key (`phone:+57…`) belongs to. */
  async profileOfIdentifier(m: EntityManager, tenantId: string, key: string): Promise<string | null> {
    const [row] = await rawQuery<{ profile_id: string }>(
      this.dataSource,
      SQL.PROFILE_OF_IDENTIFIER,
      [tenantId, key],
      m,
    );
    return row?.profile_id ?? null;
  }

  /** Ids of live profiles after `after` matching a translated JSON-Logic condition (parameters from $5). */
  async searchIds(
    tenantId: string,
    after: string,
    since: Date,
    limit: number,
    where: { sql: string; params: unknown[] },
  ): Promise<string[]> {
    const rows = await rawQuery<{ id: string }>(this.dataSource, SQL.searchIds(where.sql), [
      tenantId,
      after,
      since,
      limit,
      ...where.params,
    ]);
    return rows.map((r) => r.id);
  }

  /** Ids of live profiles after `after` (only `only` when given), at most `limit`. */
  async pageIds(tenantId: string, after: string, only: string | null, limit: number): Promise<string[]> {
    const rows = await rawQuery<{ id: string }>(this.dataSource, SQL.PAGE_IDS, [tenantId, after, only, limit]);
    return rows.map((r) => r.id);
  }

  /** Per profile, the values of aggregate columns (catalog SQL) over its transactions between two dates. */
  variableValues(
    tenantId: string,
    ids: string[],
    columns: string[],
    startDate: string,
    endDate: string,
  ): Promise<Record<string, unknown>[]> {
    return rawQuery(this.dataSource, SQL.variableValues(columns), [tenantId, ids, startDate, endDate]);
  }
}
