import { ApiProperty } from '@nestjs/swagger';

export class ActionResponse {
  @ApiProperty({ example: 'ACT019ab9f2c4e0a1b2c3d4e5' }) action_id!: string;
  @ApiProperty() rule_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['http_request', 'email', 'create_check'] }) type!: string;
  @ApiProperty({ enum: ['enabled', 'disabled'] }) status!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Depends on type (templates)' })
  config!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

export const ACTION_EXAMPLE = {
  action_id: 'ACT019ab9f2c4e0a1b2c3d4e5',
  rule_id: 'RUL019ab9f2c4e0a1b2c3d4e5',
  name: 'Notify the CRM',
  type: 'http_request',
  status: 'enabled',
  config: {
    url: 'https://crm.example.com/hooks/kyc',
    method: 'POST',
    headers: { Authorization: 'Bearer {{.env.API_TOKEN}}' },
    timeout_ms: 10000,
    max_attempts: 5,
  },
  creation_date: '2026-11-25T06:00:00.000Z',
  update_date: '2026-11-25T06:00:00.000Z',
};
