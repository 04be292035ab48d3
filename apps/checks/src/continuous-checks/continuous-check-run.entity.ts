import type { ContinuousScoreChange } from '@kyc/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** running: its check is being processed; finished: scores compared; error: the check could not be created or ended in error. */
export type RunStatus = 'running' | 'finished' | 'error';

/** One run of a continuous check (its history / run log). */
@Entity({ name: 'continuous_check_runs' })
export class ContinuousCheckRunEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'continuous_check_id', type: 'text' })
  continuousCheckId!: string;

  @Column({ type: 'int' })
  counter!: number;

  /** The new check (null when it could not be created). */
  @Column({ name: 'check_id', type: 'text', nullable: true })
  checkId!: string | null;

  @Column({ name: 'previous_check_id', type: 'text' })
  previousCheckId!: string;

  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt!: Date;

  @Column({ type: 'text' })
  status!: RunStatus;

  @Column({ type: 'double precision', nullable: true })
  score!: number | null;

  @Column({ name: 'previous_score', type: 'double precision', nullable: true })
  previousScore!: number | null;

  @Column({ name: 'score_change', type: 'text', nullable: true })
  scoreChange!: 'up' | 'down' | 'same' | null;

  @Column({ type: 'jsonb', nullable: true })
  changes!: ContinuousScoreChange[] | null;

  @Column({ type: 'text', nullable: true })
  message!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}
