import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Identity resolution merged `mergedProfileId` into `profileId` because both held `identifier`. */
@Entity({ name: 'profile_merges' })
export class ProfileMergeEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'profile_id', type: 'text' })
  profileId!: string;

  @Column({ name: 'merged_profile_id', type: 'text' })
  mergedProfileId!: string;

  @Column({ type: 'text' })
  identifier!: string;

  @Column({ name: 'merged_at', type: 'timestamptz' })
  mergedAt!: Date;
}
