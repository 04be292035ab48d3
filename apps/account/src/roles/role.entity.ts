import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'roles' })
export class RoleEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @PrimaryColumn({ type: 'text' })
  name!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ type: 'text', array: true })
  permissions!: string[];

  /** JSON-Logic rules restricting which records the role's users can read. */
  @Column({ name: 'access_rules', type: 'jsonb', default: () => `'[]'` })
  accessRules!: object[];

  @Column({ name: 'built_in', type: 'boolean', default: false })
  builtIn!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
