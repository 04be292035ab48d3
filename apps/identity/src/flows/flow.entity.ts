import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export const FLOW_STEP_TYPES = ['form', 'email', 'phone', 'document', 'face'] as const;
export type FlowStepType = (typeof FLOW_STEP_TYPES)[number];
/** Steps whose outcome comes from a validation in the validations service. */
export const VALIDATOR_STEP_TYPES: readonly FlowStepType[] = ['email', 'phone', 'document', 'face'];

export interface FlowFormField {
  name: string;
  label: string;
  required: boolean;
}

export interface FlowStep {
  step_id: string;
  type: FlowStepType;
  /** Form steps: the fields the user fills. */
  fields?: FlowFormField[];
  /** Validator steps: overrides of the tenant's validator configuration for this step. */
  validator_settings?: Record<string, unknown>;
}

/** A verification flow: the ordered steps a process runs, its timeout and where the user goes at the end. */
@Entity({ name: 'flows' })
@Index('flows_tenant_created_idx', ['tenantId', 'createdAt', 'id'])
export class FlowEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'jsonb' })
  steps!: FlowStep[];

  @Column({ name: 'redirect_url', type: 'text', nullable: true })
  redirectUrl!: string | null;

  @Column({ name: 'timeout_seconds', type: 'int' })
  timeoutSeconds!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
