import { Column, Entity, PrimaryColumn } from 'typeorm';

export type ContinuousCheckStatus = 'enabled' | 'disabled';
export const CONTINUOUS_CHECK_STATUSES: readonly ContinuousCheckStatus[] = ['enabled', 'disabled'];
/** How the last finished run's score compares with the run before it (`new` until a run finished). */
export type ScoreStatus = 'new' | 'up' | 'down' | 'same';

@Entity({ name: 'continuous_checks' })
export class ContinuousCheckEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  /** The check repeated (its inputs are re-run). */
  @Column({ name: 'check_id', type: 'text' })
  checkId!: string;

  /** The latest check of the series (the original until the first run). */
  @Column({ name: 'last_check_id', type: 'text' })
  lastCheckId!: string;

  @Column({ type: 'text' })
  frequency!: string;

  /** YYYY-MM-DD (inclusive, UTC). */
  @Column({ name: 'end_date', type: 'date' })
  endDate!: string;

  @Column({ type: 'text' })
  status!: ContinuousCheckStatus;

  /** Hook API key version: shape of the checks.check.finished payload of the runs. */
  @Column({ name: 'api_key_version', type: 'int' })
  apiKeyVersion!: 0 | 1;

  @Column({ name: 'score_status', type: 'text' })
  scoreStatus!: ScoreStatus;

  /** Runs started so far. */
  @Column({ type: 'int' })
  counter!: number;

  /** Due times are anchor + k * frequency (k >= 1): creation, or the last run when the frequency changes. */
  @Column({ name: 'anchor_at', type: 'timestamptz' })
  anchorAt!: Date;

  /** The next due run (null: disabled, or no run left before end_date). */
  @Column({ name: 'next_run_at', type: 'timestamptz', nullable: true })
  nextRunAt!: Date | null;

  @Column({ name: 'created_by', type: 'text' })
  createdBy!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
