import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { AGENT_STATUSES } from '../agent.entity';

/** An agent on the wire. */
export class AgentResponse {
  @ApiProperty({ example: 'ana@acme.com' })
  username!: string;

  @ApiProperty()
  user_id!: string;

  @ApiPropertyOptional({ description: 'Its role in the account (from the access cache)', example: 'full_access' })
  role?: string;

  @ApiPropertyOptional({ type: [String], description: "Its role's permissions (from the access cache)" })
  permissions?: string[];

  @ApiProperty({ enum: AGENT_STATUSES })
  status!: string;

  @ApiProperty({ description: 'Effective capacity (its own, else the default)', example: 5 })
  capacity!: number;

  @ApiProperty({ description: 'Whether the capacity is its own (update_type user)' })
  own_capacity!: boolean;

  @ApiProperty({ example: 2 })
  active_chats!: number;

  @ApiProperty({ description: 'Chats it can still take (capacity limits on)', example: 3 })
  free_capacity!: number;

  @ApiProperty({ type: [String], example: ['+573000000001'] })
  groups!: string[];

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  last_assigned_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  update_date!: string;
}

export const AGENT_EXAMPLE = {
  username: 'ana@acme.com',
  user_id: '9b2f6a1e-3c1d-4f6e-9a1b-2c3d4e5f6a7b',
  role: 'default_access',
  permissions: ['checks.country_co', 'validations.face_recognition'],
  status: 'online',
  capacity: 5,
  own_capacity: false,
  active_chats: 2,
  free_capacity: 3,
  groups: ['+573000000001'],
  last_assigned_at: '2026-11-25T10:00:05.000Z',
  update_date: '2026-11-25T09:00:00.000Z',
};
