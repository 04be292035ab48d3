import { ApiAnyJson } from '@kyc/platform';
import { ApiProperty } from '@nestjs/swagger';

export const DRY_RUN_REASONS = ['condition_false', 'condition_failed', 'disabled', 'depth_limit'] as const;
export type DryRunReason = (typeof DRY_RUN_REASONS)[number];

export class DryRunActionResponse {
  @ApiProperty() action_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['http_request', 'email', 'create_check'] }) type!: string;
  @ApiProperty({ enum: ['enabled', 'disabled'] }) status!: string;
  @ApiProperty({ description: 'Whether the engine would run it for this check' }) would_run!: boolean;
  @ApiProperty({
    enum: DRY_RUN_REASONS,
    nullable: true,
    type: String,
    description: 'Why it would not run (null when it would)',
  })
  reason!: DryRunReason | null;
}

export class DryRunResponse {
  @ApiProperty() rule_id!: string;
  @ApiProperty({ description: 'The saved version (its condition unless one was sent)' }) rule_version!: number;
  @ApiProperty({ description: 'Whether the condition tried is the one sent rather than the saved one' })
  draft!: boolean;
  @ApiAnyJson({ description: 'The JSON-Logic evaluated (a literal is a rule too)' })
  condition: unknown;
  @ApiProperty() check_id!: string;
  @ApiProperty({ description: 'The checks.check.finished event the check was evaluated as' }) event_id!: string;
  @ApiProperty({ description: 'Whether the condition holds (JSON-Logic truthiness)' }) matched!: boolean;
  @ApiAnyJson({ description: 'What the condition gave, before truthiness (any JSON value, null included)' })
  result: unknown;
  @ApiProperty({ type: String, nullable: true, description: 'Why the condition could not be evaluated' })
  error!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The variables the condition read' })
  variables!: Record<string, unknown>;
  @ApiProperty({ type: [DryRunActionResponse] }) actions!: DryRunActionResponse[];
}

export const DRY_RUN_EXAMPLE = {
  rule_id: 'RUL019ab9f2c4e0a1b2c3d4e5',
  rule_version: 2,
  draft: false,
  condition: { and: [{ '==': [{ var: 'country' }, 'CO'] }, { '<': [{ var: 'score' }, 0.5] }] },
  check_id: 'CHK019ab9f2c4e03f1a2b3c4d5e6f7a8b9c',
  event_id: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
  matched: true,
  result: true,
  error: null,
  variables: { check_id: 'CHK019ab9f2c4e03f1a2b3c4d5e6f7a8b9c', country: 'CO', type: 'person', score: 0.4 },
  actions: [
    {
      action_id: 'ACT019ab9f2c4e0a1b2c3d4e5',
      name: 'Notify the CRM',
      type: 'http_request',
      status: 'enabled',
      would_run: true,
      reason: null,
    },
    {
      action_id: 'ACT019ab9f2c4e0a1b2c3d4e6',
      name: 'Run the vehicle check',
      type: 'create_check',
      status: 'disabled',
      would_run: false,
      reason: 'disabled',
    },
  ],
};
