import { ApiAnyJson } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { ACTION_EXAMPLE, ActionResponse } from '../actions/dto/action.response';

export class RuleResponse {
  @ApiProperty({ example: 'RUL019ab9f2c4e0a1b2c3d4e5' }) rule_id!: string;
  @ApiProperty({ example: 'Low score in Colombia' }) name!: string;
  @ApiProperty({ enum: ['checks.check.finished'] }) event_type!: string;
  @ApiAnyJson({ description: 'JSON-Logic: an object, or a literal (true, false, a number, a string)' })
  condition: unknown;
  @ApiProperty({ description: 'Grows with every real change' }) version!: number;
  @ApiProperty() created_by!: string;
  @ApiProperty() updated_by!: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
  @ApiPropertyOptional({ type: [ActionResponse], description: 'GET /v1/bre/rules/{rule_id} only' })
  actions?: ActionResponse[];
}

export class RuleVersionResponse {
  @ApiProperty() rule_id!: string;
  @ApiProperty() version!: number;
  @ApiProperty() name!: string;
  @ApiProperty() event_type!: string;
  @ApiAnyJson({ description: 'JSON-Logic: an object, or a literal (true, false, a number, a string)' })
  condition: unknown;
  @ApiProperty() created_by!: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
}

export const RULE_EXAMPLE = {
  rule_id: 'RUL019ab9f2c4e0a1b2c3d4e5',
  name: 'Low score in Colombia',
  event_type: 'checks.check.finished',
  condition: { and: [{ '==': [{ var: 'country' }, 'CO'] }, { '<': [{ var: 'score' }, 0.5] }] },
  version: 1,
  created_by: 'admin@demo.local',
  updated_by: 'admin@demo.local',
  creation_date: '2026-11-25T06:00:00.000Z',
  update_date: '2026-11-25T06:00:00.000Z',
};

export const RULE_WITH_ACTIONS_EXAMPLE = { ...RULE_EXAMPLE, actions: [ACTION_EXAMPLE] };

export const RULE_VERSION_EXAMPLE = {
  rule_id: RULE_EXAMPLE.rule_id,
  version: 1,
  name: RULE_EXAMPLE.name,
  event_type: RULE_EXAMPLE.event_type,
  condition: RULE_EXAMPLE.condition,
  created_by: 'admin@demo.local',
  creation_date: '2026-11-25T06:00:00.000Z',
};
