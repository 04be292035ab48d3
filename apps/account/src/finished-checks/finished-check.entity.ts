import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Every `checks.check.finished` event the account service has consumed (input of the rules engine). */
@Entity({ name: 'finished_checks' })
export class FinishedCheckEntity {
  @PrimaryColumn({ name: 'event_id', type: 'text' })
  eventId!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'check_id', type: 'text' })
  checkId!: string;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'double precision' })
  score!: number;

  @Column({ type: 'jsonb' })
  payload: unknown;

  @Column({ name: 'received_at', type: 'timestamptz', default: () => 'now()' })
  receivedAt!: Date;
}
