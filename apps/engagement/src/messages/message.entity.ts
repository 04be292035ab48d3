import type { MessageStatus } from '@kyc/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A message sent to a user (an outbound send or a campaign's) or received from one. */
@Entity({ name: 'messages' })
export class MessageEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  direction!: 'outbound' | 'inbound';

  @Column({ name: 'line_id', type: 'text' })
  lineId!: string;

  @Column({ name: 'line_phone', type: 'text' })
  linePhone!: string;

  /** The user's phone, E.164. */
  @Column({ type: 'text' })
  phone!: string;

  @Column({ name: 'account_id', type: 'text', nullable: true })
  accountId!: string | null;

  @Column({ name: 'outbound_id', type: 'text', nullable: true })
  outboundId!: string | null;

  @Column({ name: 'flow_id', type: 'text', nullable: true })
  flowId!: string | null;

  @Column({ name: 'campaign_id', type: 'text', nullable: true })
  campaignId!: string | null;

  @Column({ type: 'text', nullable: true })
  text!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  values!: Record<string, string> | null;

  @Column({ type: 'text' })
  status!: MessageStatus;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'provider_message_id', type: 'text', nullable: true })
  providerMessageId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
