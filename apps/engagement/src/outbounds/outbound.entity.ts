import type { OutboundQuality, OutboundStatus } from '@kyc/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

import type { OutboundButton } from '../provider/template-components';

/** An outbound message template, submitted to the provider for review. */
@Entity({ name: 'outbounds' })
export class OutboundEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'line_phone', type: 'text' })
  linePhone!: string;

  @Column({ name: 'line_id', type: 'text' })
  lineId!: string;

  @Column({ name: 'waba_id', type: 'text' })
  wabaId!: string;

  @Column({ type: 'text' })
  category!: 'MARKETING' | 'AUTHENTICATION' | 'UTILITY';

  @Column({ name: 'language_code', type: 'text' })
  languageCode!: string;

  @Column({ name: 'template_type', type: 'text' })
  templateType!: 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT';

  @Column({ name: 'is_notification', type: 'boolean' })
  isNotification!: boolean;

  @Column({ name: 'media_id', type: 'text', nullable: true })
  mediaId!: string | null;

  @Column({ type: 'text', nullable: true })
  content!: string | null;

  @Column({ name: 'header_text', type: 'text', nullable: true })
  headerText!: string | null;

  @Column({ type: 'text', nullable: true })
  footer!: string | null;

  @Column({ name: 'code_expiration_minutes', type: 'integer', nullable: true })
  codeExpirationMinutes!: number | null;

  /** The spec's `var`: example value per variable. */
  @Column({ type: 'jsonb' })
  examples!: Record<string, string>;

  @Column({ type: 'jsonb' })
  buttons!: OutboundButton[];

  /** Every variable a send must supply, in order. */
  @Column({ type: 'jsonb' })
  variables!: string[];

  @Column({ name: 'default_flow_id', type: 'text', nullable: true })
  defaultFlowId!: string | null;

  @Column({ type: 'text' })
  status!: OutboundStatus;

  @Column({ type: 'text' })
  quality!: OutboundQuality;

  @Column({ name: 'status_reason', type: 'text', nullable: true })
  statusReason!: string | null;

  /** Name of the template at the provider (`otb_<id>_<revision>`: provider names allow [a-z0-9_]). */
  @Column({ name: 'provider_name', type: 'text' })
  providerName!: string;

  @Column({ name: 'provider_template_id', type: 'text', nullable: true })
  providerTemplateId!: string | null;

  @Column({ type: 'integer' })
  revision!: number;

  @Column({ name: 'status_changed_at', type: 'timestamptz' })
  statusChangedAt!: Date;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** One quality rating of an outbound and when it was reported (read by the daily quality review). */
@Entity({ name: 'outbound_quality_history' })
export class OutboundQualityEntity {
  @PrimaryColumn({ type: 'bigint', generated: 'increment' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'outbound_id', type: 'text' })
  outboundId!: string;

  @Column({ type: 'text' })
  quality!: OutboundQuality;

  @Column({ type: 'timestamptz' })
  at!: Date;
}
