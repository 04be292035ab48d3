import { CursorPageQuery } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

import { ACTIVITY_TYPES, ActivityType, ACTOR_TYPES, ActorType } from '../chat.entity';

/** GET /v1/engagement/chat/{chat_id}/activities: filters, `start_key` and `limit` (1..100, default 50). */
export class ListActivitiesQuery extends CursorPageQuery {
  @ApiPropertyOptional({ enum: ACTOR_TYPES })
  @IsOptional()
  @IsIn(ACTOR_TYPES)
  actor_type?: ActorType;

  @ApiPropertyOptional({ enum: ACTIVITY_TYPES })
  @IsOptional()
  @IsIn(ACTIVITY_TYPES)
  activity_type?: ActivityType;
}
