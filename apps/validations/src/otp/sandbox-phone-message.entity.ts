import { SandboxPhoneMessageColumns } from '@kyc/platform';
import { Column, Entity } from 'typeorm';

/** A message the SANDBOX phone gateway "delivered" (SMS, call script or messaging-app text); tests read them. */
@Entity({ name: 'sandbox_phone_messages' })
export class SandboxPhoneMessageEntity extends SandboxPhoneMessageColumns {
  /** The validation whose code the message carried. */
  @Column({ name: 'validation_id', type: 'text' }) validationId!: string;
}
