import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A messaging-app line (business phone number) a profile has talked to. */
@Entity({ name: 'profile_lines' })
export class ProfileLineEntity {
  @PrimaryColumn({ name: 'profile_id', type: 'text' })
  profileId!: string;

  @PrimaryColumn({ name: 'waba_phone_number', type: 'text' })
  wabaPhoneNumber!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'first_seen_at', type: 'timestamptz' })
  firstSeenAt!: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt!: Date;
}
