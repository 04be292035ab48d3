import { Column, Entity, PrimaryColumn } from 'typeorm';

export type ComputeStatus = 'not_computed' | 'queued' | 'running' | 'completed' | 'failed';
export type ComputeEvaluation = 'sql' | 'node';

/** A segment: a JSON-Logic rule over profile attributes and decision variables, and its last compute. */
@Entity({ name: 'segments' })
export class SegmentEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'jsonb' })
  rule: unknown;

  /** The compute requested last (running, or finished). */
  @Column({ name: 'compute_id', type: 'text', nullable: true })
  computeId!: string | null;

  @Column({ name: 'compute_status', type: 'text' })
  computeStatus!: ComputeStatus;

  /** How the last compute evaluated the rule: `sql` (push-down) or `node` (fallback, per batch). */
  @Column({ name: 'compute_evaluation', type: 'text', nullable: true })
  computeEvaluation!: ComputeEvaluation | null;

  /** Why the rule was evaluated in Node (the part the SQL translation refused). */
  @Column({ name: 'compute_fallback_reason', type: 'text', nullable: true })
  computeFallbackReason!: string | null;

  @Column({ name: 'compute_processed', type: 'integer' })
  computeProcessed!: number;

  @Column({ name: 'compute_total', type: 'integer' })
  computeTotal!: number;

  @Column({ name: 'compute_matched', type: 'integer' })
  computeMatched!: number;

  /** The last profile id a running compute has done (it resumes after it when its job is retried). */
  @Column({ name: 'compute_cursor', type: 'text', nullable: true })
  computeCursor!: string | null;

  @Column({ name: 'compute_error', type: 'text', nullable: true })
  computeError!: string | null;

  @Column({ name: 'compute_requested_at', type: 'timestamptz', nullable: true })
  computeRequestedAt!: Date | null;

  @Column({ name: 'compute_started_at', type: 'timestamptz', nullable: true })
  computeStartedAt!: Date | null;

  @Column({ name: 'compute_finished_at', type: 'timestamptz', nullable: true })
  computeFinishedAt!: Date | null;

  /** The compute whose members are the segment's profiles (the last completed one). */
  @Column({ name: 'members_compute_id', type: 'text', nullable: true })
  membersComputeId!: string | null;

  @Column({ name: 'members_count', type: 'integer' })
  membersCount!: number;

  @Column({ name: 'computed_at', type: 'timestamptz', nullable: true })
  computedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
