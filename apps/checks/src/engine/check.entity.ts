import type { CheckCountry, CheckStatus, DataSet, NamesMatchingType } from '@kyc/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { CheckResult } from './check-result';

/** Settings in force when the check was created (null fields: the tenant had not set them). */
export interface CheckSettingsSnapshot {
  max_duration_minutes: number | null;
  retries: boolean;
  names_matching_type: NamesMatchingType;
}

@Entity({ name: 'checks' })
@Index('checks_tenant_created_idx', ['tenantId', 'createdAt', 'id'])
@Index('checks_dedup_idx', ['tenantId', 'inputHash', 'createdAt'])
export class CheckEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  country!: CheckCountry;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'text' })
  status!: CheckStatus;

  /** Wire-named inputs as received (after validation). */
  @Column({ type: 'jsonb' })
  inputs!: Record<string, string>;

  @Column({ name: 'input_hash', type: 'text' })
  inputHash!: string;

  @Column({ name: 'custom_input', type: 'text', nullable: true })
  customInput!: string | null;

  @Column({ name: 'report_id', type: 'text', nullable: true })
  reportId!: string | null;

  @Column({ name: 'user_authorized', type: 'boolean' })
  userAuthorized!: boolean;

  @Column({ type: 'double precision', default: -1 })
  score!: number;

  @Column({ name: 'id_score', type: 'double precision', default: -1 })
  idScore!: number;

  @Column({ name: 'homonym_score', type: 'double precision', default: -1 })
  homonymScore!: number;

  /** Brazil: the region searched (given or derived from the CPF). */
  @Column({ type: 'text', nullable: true })
  region!: string | null;

  /** The check this one repeats (continuous checks). */
  @Column({ name: 'previous_check', type: 'text', nullable: true })
  previousCheck!: string | null;

  /** Custom type weights at creation (null for built-in types: the defaults of the type and country). */
  @Column({ type: 'jsonb', nullable: true })
  weights!: Partial<Record<DataSet, number>> | null;

  /** Tenant settings at creation (null: defaults). */
  @Column({ type: 'jsonb', nullable: true })
  settings!: CheckSettingsSnapshot | null;

  /** Scores per dataset, database statuses, summaries (kept on the row so reads are one query; see CheckResult). json, not jsonb: written and read whole (migration ResultAsJson). */
  @Column({ type: 'json', nullable: true })
  result!: CheckResult | null;

  @Column({ name: 'created_by', type: 'text' })
  createdBy!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'deadline_at', type: 'timestamptz', nullable: true })
  deadlineAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  /** Rules engine: checks created by create_check actions before this one in its chain (0: a client created it). */
  @Column({ name: 'rule_depth', type: 'int', default: 0 })
  ruleDepth!: number;

  /** Rules engine: the execution whose create_check action created this check. */
  @Column({ name: 'requested_by_execution', type: 'text', nullable: true })
  requestedByExecution!: string | null;
}
