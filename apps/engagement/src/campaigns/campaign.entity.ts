import { Column, Entity, PrimaryColumn } from 'typeorm';

export type CampaignStatus = 'processing' | 'completed' | 'cancelled';
export type RecipientStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'cancelled';

/** A bulk send of one approved outbound to a list of recipients, worked off by durable jobs. */
@Entity({ name: 'campaigns' })
export class CampaignEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'outbound_id', type: 'text' })
  outboundId!: string;

  @Column({ name: 'flow_id', type: 'text', nullable: true })
  flowId!: string | null;

  @Column({ type: 'text' })
  status!: CampaignStatus;

  @Column({ type: 'integer' })
  total!: number;

  /** Messages per second. */
  @Column({ type: 'integer' })
  rate!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}

/** One recipient of a campaign. `sending`: claimed and being sent (or the process died during the call). */
@Entity({ name: 'campaign_recipients' })
export class CampaignRecipientEntity {
  @PrimaryColumn({ name: 'campaign_id', type: 'text' })
  campaignId!: string;

  @PrimaryColumn({ type: 'integer' })
  seq!: number;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  phone!: string;

  @Column({ name: 'account_id', type: 'text', nullable: true })
  accountId!: string | null;

  @Column({ type: 'jsonb' })
  values!: Record<string, string>;

  @Column({ type: 'text' })
  status!: RecipientStatus;

  @Column({ name: 'message_id', type: 'text', nullable: true })
  messageId!: string | null;

  @Column({ name: 'claimed_at', type: 'timestamptz', nullable: true })
  claimedAt!: Date | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;
}
