import { rawQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import * as SQL from './collector-credential.sql';

/** The raw statements of a tenant's collector credentials, their SQL in collector-credential.sql.ts. */
@Injectable()
export class CollectorCredentialStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Creates or replaces the credentials: their creation and update dates. */
  async upsert(
    tenantId: string,
    databaseId: string,
    username: string,
    secret: unknown,
    hasComplements: boolean,
    now: Date,
  ): Promise<{ created_at: Date; updated_at: Date }> {
    const [row] = await rawQuery<{ created_at: Date; updated_at: Date }>(
      this.dataSource,
      SQL.UPSERT,
      [tenantId, databaseId, username, secret, hasComplements, now],
      this.dataSource.manager,
    );
    return row;
  }
}
