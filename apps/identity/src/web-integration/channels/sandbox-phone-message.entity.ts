import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** SANDBOX only: an SMS the sandbox phone provider would have delivered (GET /v1/sandbox/phone-messages). */
@Entity({ name: 'sandbox_phone_messages' })
@Index('sandbox_phone_messages_tenant_idx', ['tenantId', 'createdAt'])
export class SandboxPhoneMessageEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId: string;

  @Column({ name: 'delivery_id', type: 'text' })
  deliveryId: string;

  @Column({ name: 'phone_number', type: 'text' })
  phoneNumber: string;

  @Column({ type: 'text' })
  channel: string;

  @Column({ type: 'text' })
  text: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
