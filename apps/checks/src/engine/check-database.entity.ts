import type { CheckCountry, DatabaseStatus, DataSet } from '@kyc/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

import type { CollectorAnswer, SearchRoute } from '../collectors/collector';

/**
 * One database of one check: its status, the search it runs, its answer. It is also the check's
 * detail (GET /v1/checks/{id}/details lists these rows, id DTL…).
 */
@Entity({ name: 'check_databases' })
export class CheckDatabaseEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'check_id', type: 'text' })
  checkId!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'database_id', type: 'text' })
  databaseId!: string;

  @Column({ name: 'database_name', type: 'text' })
  databaseName!: string;

  @Column({ type: 'text' })
  country!: CheckCountry;

  @Column({ name: 'data_sets', type: 'jsonb' })
  dataSets!: DataSet[];

  @Column({ type: 'text' })
  status!: DatabaseStatus;

  @Column({ name: 'search_by', type: 'text', nullable: true })
  searchBy!: SearchRoute | null;

  @Column({ name: 'invalid_inputs', type: 'jsonb', nullable: true })
  invalidInputs!: string[] | null;

  /** Why the database failed (error) or expired. */
  @Column({ type: 'text', nullable: true })
  message!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  answer!: CollectorAnswer | null;

  /** Correlates an asynchronous answer (webhook) with this query. */
  @Column({ type: 'text', unique: true })
  reference!: string;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @Column({ name: 'requested_at', type: 'timestamptz', nullable: true })
  requestedAt!: Date | null;

  /** After this the database is `delayed` (its declared expected latency). */
  @Column({ name: 'expected_at', type: 'timestamptz', nullable: true })
  expectedAt!: Date | null;

  @Column({ name: 'answered_at', type: 'timestamptz', nullable: true })
  answeredAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
