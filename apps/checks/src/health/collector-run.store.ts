import { rawQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import * as SQL from './collector-run.sql';

/** Per database: runs by local hour of the day and in the last hour's window. */
export interface CollectorRunHealthRow {
  database_id: string;
  hour: number | null;
  in_window: boolean;
  ok: number;
  total: number;
  latency: number | null;
}

/** The reads of collector_runs for database health (the check engine writes them), its SQL in collector-run.sql.ts. */
@Injectable()
export class CollectorRunStore {
  constructor(private readonly dataSource: DataSource) {}

  /** $1 country, $2 database ids, $3-$4 the local day, $5-$6 the window, $7-$8 the span read. */
  health(values: unknown[]): Promise<CollectorRunHealthRow[]> {
    return rawQuery<CollectorRunHealthRow>(this.dataSource, SQL.HEALTH, values, this.dataSource.manager);
  }
}
