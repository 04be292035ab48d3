import { CursorPageQuery } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

import { toList } from '../../shared/list-param';
import { AGENT_STATUSES, AgentStatus } from '../agent.entity';
import { GROUP_PATTERN } from './set-agent-status.dto';

/** GET /v1/engagement/agent/status: `groups` (any of), `status`, `username` substring, `start_key`, `limit`. */
export class ListAgentsQuery extends CursorPageQuery {
  @ApiPropertyOptional({ description: 'Comma-separated; agents serving any of them', type: String })
  @IsOptional()
  @Transform(toList)
  @ArrayMaxSize(50)
  @Matches(GROUP_PATTERN, { each: true, message: 'each group is 1 to 64 letters, digits, spaces, _ . : + -' })
  groups?: string[];

  @ApiPropertyOptional({ enum: AGENT_STATUSES })
  @IsOptional()
  @IsIn(AGENT_STATUSES)
  status?: AgentStatus;

  @ApiPropertyOptional({ description: 'Part of the e-mail (any case)' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  username?: string;
}
