import { CursorPageQuery, ToBoolean } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
} from 'class-validator';

import { toList } from '../../shared/list-param';
import { IsRfc3339 } from '../../shared/rfc3339';
import { ACTIVITY_TYPES, ActivityType, ACTOR_TYPES, ActorType } from '../chat.entity';
export const SEARCH_STATUSES = ['open', 'closed', 'UNASSIGNED'] as const;
const TOGETHER = 'last_activity_from and last_activity_to must be given together';

/** GET /v1/engagement/chat/search: every filter of the spec's table, `start_key` and `limit` (1..100, default 20). */
export class SearchChatsQuery extends CursorPageQuery {
  @ApiPropertyOptional({ description: "Part of the contact's name (any case) or phone digits" })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({ description: 'true: only open chats waiting in a queue (no owner)' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  only_enqueued?: boolean;

  @ApiPropertyOptional({ description: 'RFC 3339; with last_activity_to' })
  @ValidateIf((o: SearchChatsQuery) => o.last_activity_from !== undefined || o.last_activity_to !== undefined)
  @IsDefined({ message: TOGETHER })
  @IsRfc3339('last_activity_from')
  last_activity_from?: string;

  @ApiPropertyOptional({ description: 'RFC 3339; with last_activity_from, not before it' })
  @ValidateIf((o: SearchChatsQuery) => o.last_activity_from !== undefined || o.last_activity_to !== undefined)
  @IsDefined({ message: TOGETHER })
  @IsRfc3339('last_activity_to')
  last_activity_to?: string;

  @ApiPropertyOptional({ enum: ACTOR_TYPES, description: 'Actor of the latest activity' })
  @IsOptional()
  @IsIn(ACTOR_TYPES)
  actor_type?: ActorType;

  @ApiPropertyOptional({ enum: ACTIVITY_TYPES, description: 'Type of the latest activity' })
  @IsOptional()
  @IsIn(ACTIVITY_TYPES)
  activity_type?: ActivityType;

  @ApiPropertyOptional({ description: "The owner agent's e-mail" })
  @IsOptional()
  @IsEmail({}, { message: 'owner must be an e-mail address' })
  @MaxLength(254)
  owner?: string;

  @ApiPropertyOptional({ enum: SEARCH_STATUSES, description: 'UNASSIGNED: open without an owner' })
  @IsOptional()
  @IsIn(SEARCH_STATUSES)
  status?: (typeof SEARCH_STATUSES)[number];

  @ApiPropertyOptional({ description: 'Comma-separated (or repeated); a chat with any of them matches', type: String })
  @IsOptional()
  @Transform(toList)
  @ArrayMaxSize(20, { message: 'tags takes at most 20 tags' })
  @Matches(/^[\p{L}\p{N}_.:-]{1,50}$/u, { each: true, message: 'each tag is 1 to 50 letters, digits, _ . : -' })
  tags?: string[];
}
