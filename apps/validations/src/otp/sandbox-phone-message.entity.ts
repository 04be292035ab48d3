import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A message the SANDBOX phone provider "delivered" (SMS, call script or messaging-app text); tests read them. */
@Entity({ name: 'sandbox_phone_messages' })
export class SandboxPhoneMessageEntity {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId: string;
  @Column({ name: 'phone_number', type: 'text' }) phoneNumber: string;
  @Column({ type: 'text' }) channel: string;
  @Column({ type: 'text' }) text: string;
  @Column({ name: 'validation_id', type: 'text' }) validationId: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
