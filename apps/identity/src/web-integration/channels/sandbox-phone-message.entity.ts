import { SandboxPhoneMessageColumns } from '@kyc/platform';
import { Column, Entity, Index } from 'typeorm';

/** SANDBOX only: an SMS the sandbox phone gateway would have delivered (GET /v1/sandbox/phone-messages). */
@Entity({ name: 'sandbox_phone_messages' })
@Index('sandbox_phone_messages_tenant_idx', ['tenantId', 'createdAt'])
export class SandboxPhoneMessageEntity extends SandboxPhoneMessageColumns {
  /** The access-link delivery the SMS carried. */
  @Column({ name: 'delivery_id', type: 'text' })
  deliveryId!: string;
}
