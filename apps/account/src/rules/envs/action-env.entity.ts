import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An environment variable of an action, usable in its templates as `{{.NAME}}`. A secret one is
 * stored only sealed (AES-256-GCM, `sealedValue`) and is never returned, logged or audited.
 */
@Entity({ name: 'bre_action_envs' })
export class ActionEnvEntity {
  @PrimaryColumn({ name: 'action_id', type: 'text' })
  actionId!: string;

  @PrimaryColumn({ type: 'text' })
  name!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'is_secret', type: 'boolean' })
  isSecret!: boolean;

  /** The value of a variable that is not secret (null for secrets). */
  @Column({ type: 'text', nullable: true })
  value!: string | null;

  /** The sealed value of a secret variable (null otherwise). */
  @Column({ name: 'sealed_value', type: 'text', nullable: true })
  sealedValue!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
