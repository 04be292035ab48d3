import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsEmail, IsIn, IsOptional, Matches, MaxLength } from 'class-validator';

import { AGENT_STATUSES, AgentStatus } from '../agent.entity';

export const GROUP_PATTERN = /^[\p{L}\p{N}_.:+ -]{1,64}$/u;

/** POST /v1/engagement/agent/status (JSON). */
export class SetAgentStatusDto {
  @ApiProperty({ description: "The agent's e-mail (a user of the account)", example: 'ana@acme.com' })
  @IsEmail({}, { message: "username must be the agent's e-mail" })
  @MaxLength(254)
  username!: string;

  @ApiProperty({ enum: AGENT_STATUSES })
  @IsIn(AGENT_STATUSES)
  status!: AgentStatus;

  @ApiPropertyOptional({
    description: 'Queues it serves: line phones (+57…) or group names; omitted keeps them, [] serves every queue',
    type: [String],
    example: ['+573000000001'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @Matches(GROUP_PATTERN, { each: true, message: 'each group is 1 to 64 letters, digits, spaces, _ . : + -' })
  groups?: string[];
}
