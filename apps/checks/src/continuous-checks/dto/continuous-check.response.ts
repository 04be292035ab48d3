import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { CHECK_EXAMPLE, CheckResponse } from '../../checks/dto/check.response';

export class ContinuousCheckResponse {
  @ApiProperty({ description: 'Published ContinuousCheck: the continuous check ID' }) ContinuousCheckID!: string;
  @ApiProperty({ description: 'Published ContinuousCheck: the frequency', example: 'monthly' }) Frequency!: string;
  @ApiProperty({ description: 'Published ContinuousCheck: the last check ID' }) LastCheckID!: string;
  @ApiProperty({ enum: ['new', 'up', 'down', 'same'], description: 'Published ContinuousCheck: score_status' })
  ContinuousCheckStatus!: string;
  @ApiProperty({ description: 'Published ContinuousCheck: status is enabled' }) Enabled!: boolean;
  @ApiPropertyOptional({ format: 'date', description: 'Published ContinuousCheck: the next run day' })
  NextRunDate?: string;
  @ApiProperty({ format: 'date' }) CreationDate!: string;
  @ApiProperty({ format: 'date' }) UpdateDate!: string;
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'The monitored check: its statuses (as on the check)',
  })
  statuses?: object[];
  @ApiPropertyOptional({ description: 'The monitored check: its country' }) country?: string;
  @ApiPropertyOptional({ type: Number, minimum: 0, maximum: 1, description: 'The monitored check: its score' })
  score?: number;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The monitored check: its summary',
  })
  summary?: object;
  @ApiPropertyOptional({ description: 'The monitored check: its type' }) type?: string;
  @ApiPropertyOptional({ type: Number, minimum: 0, maximum: 1, description: 'The monitored check: its id_score' })
  id_score?: number;
  @ApiProperty({ example: 'CCK019ab9f2c4e0a1b2c3d4e5' }) continuous_check_id!: string;
  @ApiProperty() check_id!: string;
  @ApiPropertyOptional({ type: CheckResponse, description: 'The original check' }) check?: CheckResponse;
  @ApiProperty() last_check_id!: string;
  @ApiProperty({ example: 'monthly', description: 'daily, weekly, monthly, yearly or <n>d|w|m|y' }) frequency!: string;
  @ApiProperty({ example: '2027-11-25' }) end_date!: string;
  @ApiProperty({ enum: ['enabled', 'disabled'] }) status!: string;
  @ApiProperty({ enum: [0, 1] }) api_key_version!: number;
  @ApiProperty({ description: 'Runs made' }) counter!: number;
  @ApiProperty({ enum: ['new', 'up', 'down', 'same'] }) score_status!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) next_run_date!: string | null;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
  @ApiProperty() self!: string;
}

export class ContinuousCheckRunResponse {
  @ApiProperty({ example: 'CCR019ab9f2c4e0a1b2c3d4e5' }) run_id!: string;
  @ApiProperty() continuous_check_id!: string;
  @ApiProperty() counter!: number;
  @ApiProperty({ type: String, nullable: true }) check_id!: string | null;
  @ApiProperty() previous_check_id!: string;
  @ApiProperty({ enum: ['running', 'finished', 'error'] }) status!: string;
  @ApiProperty({ format: 'date-time' }) due_date!: string;
  @ApiProperty({ type: Number, nullable: true }) score!: number | null;
  @ApiProperty({ type: Number, nullable: true }) previous_score!: number | null;
  @ApiProperty({ type: String, enum: ['up', 'down', 'same'], nullable: true }) score_change!: string | null;
  @ApiProperty({
    type: 'array',
    items: {
      type: 'object',
      properties: { name: { type: 'string' }, old_score: { type: 'number' }, new_score: { type: 'number' } },
    },
  })
  changes!: { name: string; old_score: number; new_score: number }[];
  @ApiPropertyOptional({ description: 'Why the run failed' }) message?: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_date!: string | null;
}

export class ContinuousCheckHistoryResponse {
  @ApiProperty() continuous_check_id!: string;
  @ApiProperty({ type: [ContinuousCheckRunResponse] }) history!: ContinuousCheckRunResponse[];
  @ApiProperty() self!: string;
  @ApiPropertyOptional({ description: 'The next page; absent on the last page' }) next?: string;
}

export const CONTINUOUS_CHECK_EXAMPLE = {
  ContinuousCheckID: 'CCK019ab9f2c4e0a1b2c3d4e5',
  Frequency: 'monthly',
  LastCheckID: CHECK_EXAMPLE.check_id,
  ContinuousCheckStatus: 'new',
  Enabled: true,
  NextRunDate: '2026-12-25',
  CreationDate: '2026-11-25',
  UpdateDate: '2026-11-25',
  continuous_check_id: 'CCK019ab9f2c4e0a1b2c3d4e5',
  check_id: CHECK_EXAMPLE.check_id,
  check: CHECK_EXAMPLE,
  last_check_id: CHECK_EXAMPLE.check_id,
  frequency: 'monthly',
  end_date: '2027-11-25',
  status: 'enabled',
  api_key_version: 1,
  counter: 0,
  score_status: 'new',
  next_run_date: '2026-12-25T06:00:00.000Z',
  creation_date: '2026-11-25T06:00:00.000Z',
  update_date: '2026-11-25T06:00:00.000Z',
  self: '/v1/continuous-checks/CCK019ab9f2c4e0a1b2c3d4e5',
};

export const CONTINUOUS_RUN_EXAMPLE = {
  run_id: 'CCR019ab9f2c4e0a1b2c3d4e5',
  continuous_check_id: CONTINUOUS_CHECK_EXAMPLE.continuous_check_id,
  counter: 1,
  check_id: 'CHK019b3c1d2e0f1a2b3c4d5e6f7a8b9c',
  previous_check_id: CHECK_EXAMPLE.check_id,
  status: 'finished',
  due_date: '2026-12-25T06:00:00.000Z',
  score: 0.8,
  previous_score: 1,
  score_change: 'down',
  changes: [{ name: 'score', old_score: 1, new_score: 0.8 }],
  creation_date: '2026-12-25T06:00:00.120Z',
  finished_date: '2026-12-25T06:00:02.010Z',
};
