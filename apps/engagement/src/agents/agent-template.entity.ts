import { Column, Entity, PrimaryColumn } from 'typeorm';

export const AGENT_TEMPLATE_TYPES = ['text'] as const;

/** A canned answer agents pick in the workspace. */
@Entity({ name: 'agent_templates' })
export class AgentTemplateEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @PrimaryColumn({ type: 'text' })
  name!: string;

  @Column({ name: 'template_type', type: 'text' })
  templateType!: string;

  @Column({ type: 'text', nullable: true })
  content!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
