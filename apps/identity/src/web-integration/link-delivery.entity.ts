import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { LinkChannel, LinkLanguage } from './dto/access-link.dto';

/** queued → sent, or failed (the channel refused it for good). */
export type LinkDeliveryStatus = 'queued' | 'sent' | 'failed';

/** One sending of a process link (access link or send-link) through a channel; a durable job delivers it. */
@Entity({ name: 'link_deliveries' })
@Index('link_deliveries_tenant_created_idx', ['tenantId', 'createdAt'])
export class LinkDeliveryEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ name: 'flow_id', type: 'text' })
  flowId!: string;

  /** The web key the link carries (access links issue it; send-link uses the process's). */
  @Column({ name: 'key_id', type: 'text' })
  keyId!: string;

  @Column({ name: 'process_id', type: 'text', nullable: true })
  processId!: string | null;

  @Column({ type: 'text' })
  channel!: LinkChannel;

  @Column({ type: 'text' })
  lang!: LinkLanguage;

  /** E.164 phone or e-mail address. */
  @Column({ type: 'text' })
  recipient!: string;

  @Column({ name: 'outbound_id', type: 'text', nullable: true })
  outboundId!: string | null;

  @Column({ type: 'jsonb' })
  variables!: Record<string, string>;

  /** The link (it carries the web key): kept until it is delivered, then cleared. */
  @Column({ type: 'text', nullable: true })
  link!: string | null;

  @Column({ type: 'text' })
  status!: LinkDeliveryStatus;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  /** The engagement message id of a msgapp delivery. */
  @Column({ name: 'message_id', type: 'text', nullable: true })
  messageId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
