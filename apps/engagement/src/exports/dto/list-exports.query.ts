import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

import { IsRfc3339 } from '../../shared/rfc3339';
import { EXPORT_FORMATS, EXPORT_LANGUAGES, EXPORT_TYPES } from '../chat-export.entity';

const PAGE_SIZE_MESSAGE = 'page_size must be an integer from 1 to 100';

/** GET /v1/engagement/chat/export: every filter of the spec's table. */
export class ListExportsQuery {
  @ApiPropertyOptional({ description: 'Exports of this chat (single_chat)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  chat_id?: string;

  @ApiPropertyOptional({ description: 'RFC 3339: exports whose range starts at or after it' })
  @IsOptional()
  @IsRfc3339('time_range_start_date')
  time_range_start_date?: string;

  @ApiPropertyOptional({ description: 'RFC 3339: exports whose range ends at or before it' })
  @IsOptional()
  @IsRfc3339('time_range_end_date')
  time_range_end_date?: string;

  @ApiPropertyOptional({ enum: EXPORT_FORMATS })
  @IsOptional()
  @IsIn(EXPORT_FORMATS)
  export_format?: string;

  @ApiPropertyOptional({ description: 'Part of the name (any case)' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  name?: string;

  @ApiPropertyOptional({ enum: EXPORT_TYPES })
  @IsOptional()
  @IsIn(EXPORT_TYPES)
  export_type?: string;

  @ApiPropertyOptional({ enum: EXPORT_LANGUAGES })
  @IsOptional()
  @IsIn(EXPORT_LANGUAGES)
  language?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === undefined ? undefined : Number(value)))
  @IsInt({ message: PAGE_SIZE_MESSAGE })
  @Min(1, { message: PAGE_SIZE_MESSAGE })
  @Max(100, { message: PAGE_SIZE_MESSAGE })
  page_size?: number;

  @ApiPropertyOptional({ description: 'Exports requested by this user (e-mail)' })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  requested_by?: string;

  @ApiPropertyOptional({ description: 'Cursor from the `next` link' })
  @IsOptional()
  @IsString()
  start_key?: string;
}
