import { ApiProperty } from '@nestjs/swagger';

export class AuditEntryResponse {
  @ApiProperty() audit_id!: string;
  @ApiProperty({ example: 'user.created' }) action!: string;
  @ApiProperty({ example: 'user' }) resource_type!: string;
  @ApiProperty({ example: 'ana@acme.co' }) resource_id!: string;
  @ApiProperty() actor_id!: string;
  @ApiProperty({ example: 'admin@demo.local' }) actor_username!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'What changed (secrets as [secret])' })
  changes!: Record<string, unknown>;
  @ApiProperty({ type: String, nullable: true }) reason!: string | null;
  @ApiProperty({ type: String, nullable: true }) request_id!: string | null;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
}

export const AUDIT_ENTRY_EXAMPLE = {
  audit_id: 'AUD019ab9f2c4e0a1b2c3d4e5',
  action: 'user.created',
  resource_type: 'user',
  resource_id: 'ana@acme.co',
  actor_id: 'USR019ab9f2c4e0a0000000001',
  actor_username: 'admin@demo.local',
  changes: { username: 'ana@acme.co', role: 'default_access', status: 'enabled' },
  reason: null,
  request_id: '2c1d9a4e-8f3b-4d2a-9b1c-5e6f7a8b9c0d',
  creation_date: '2026-11-25T06:00:00.000Z',
};
