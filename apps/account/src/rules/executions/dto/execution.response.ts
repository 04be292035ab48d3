import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ExecutionResponse {
  @ApiProperty({ example: 'EXE019ab9f2c4e0a1b2c3d4e5' }) execution_id!: string;
  @ApiProperty() rule_id!: string;
  @ApiProperty() rule_version!: number;
  @ApiProperty() action_id!: string;
  @ApiProperty({ enum: ['http_request', 'email', 'create_check'] }) action_type!: string;
  @ApiProperty({ description: 'The event that fired the rule' }) event_id!: string;
  @ApiProperty() check_id!: string;
  @ApiProperty({ description: 'rule_depth of the check that fired the rule' }) depth!: number;
  @ApiProperty({ enum: ['pending', 'running', 'retrying', 'succeeded', 'failed', 'skipped'] }) outcome!: string;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: Number, nullable: true }) response_status!: number | null;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'create_check: the check it created' })
  created_check_id?: string | null;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) started_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_at!: string | null;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

export const EXECUTION_EXAMPLE = {
  execution_id: 'EXE019ab9f2c4e0a1b2c3d4e5',
  rule_id: 'RUL019ab9f2c4e0a1b2c3d4e5',
  rule_version: 1,
  action_id: 'ACT019ab9f2c4e0a1b2c3d4e5',
  action_type: 'http_request',
  event_id: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
  check_id: 'CHK019ab9f2c4e03f1a2b3c4d5e6f7a8b9c',
  depth: 0,
  outcome: 'succeeded',
  attempts: 1,
  response_status: 200,
  error: null,
  creation_date: '2026-11-25T06:00:02.000Z',
  started_at: '2026-11-25T06:00:02.050Z',
  finished_at: '2026-11-25T06:00:02.180Z',
  update_date: '2026-11-25T06:00:02.180Z',
};
