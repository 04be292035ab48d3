import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An inbound flow: a user who sends the activation message to the line starts the flow. */
@Entity({ name: 'inbounds' })
export class InboundEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  /** Identity flow id (validated once identity has flows: any well-formed id for now). */
  @Column({ name: 'flow_id', type: 'text' })
  flowId!: string;

  @Column({ name: 'activation_message', type: 'text' })
  activationMessage!: string;

  @Column({ name: 'line_phone', type: 'text' })
  linePhone!: string;

  @Column({ name: 'activation_link', type: 'text' })
  activationLink!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** A user's conversation with a line in a flow, open until finished (POST /v1/msg/finish-msgapp-session). */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'line_phone', type: 'text' })
  linePhone!: string;

  @Column({ type: 'text' })
  phone!: string;

  @Column({ name: 'flow_id', type: 'text' })
  flowId!: string;

  @Column({ name: 'inbound_id', type: 'text', nullable: true })
  inboundId!: string | null;

  @Column({ type: 'text' })
  status!: 'open' | 'finished';

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}
