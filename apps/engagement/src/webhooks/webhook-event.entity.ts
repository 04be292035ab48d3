import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A provider webhook received (by the SHA-256 of its body) and whether it was processed yet. The
 * campaigns read it: a send is never repeated while a received webhook might still confirm it.
 */
@Entity({ name: 'webhook_events' })
export class WebhookEventEntity {
  @PrimaryColumn({ type: 'text' })
  digest!: string;

  @Column({ name: 'received_at', type: 'timestamptz' })
  receivedAt!: Date;

  @Column({ name: 'processed_at', type: 'timestamptz', nullable: true })
  processedAt!: Date | null;
}
