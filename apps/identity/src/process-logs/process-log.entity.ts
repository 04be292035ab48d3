import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A client-side log entry of a process (POST /v1/processes/enqueue-log). */
@Entity({ name: 'process_logs' })
@Index('process_logs_tenant_process_idx', ['tenantId', 'processId', 'createdAt'])
export class ProcessLogEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'process_id', type: 'text', nullable: true })
  processId!: string | null;

  @Column({ type: 'text' })
  level!: string;

  @Column({ type: 'text' })
  message!: string;

  @Column({ name: 'key_id', type: 'text' })
  keyId!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
