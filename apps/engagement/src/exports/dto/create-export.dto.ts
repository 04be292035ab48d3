import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';

import { EXPORT_FORMATS, EXPORT_LANGUAGES, EXPORT_TYPES, ExportLanguage } from '../chat-export.entity';

/** A year and month, optionally with the rest of a date or an RFC 3339 time (only year and month are used). */
export const YEAR_MONTH = /^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?)?$/;

/** POST /v1/engagement/chat/export (JSON). */
export class CreateExportDto {
  @ApiProperty({ enum: EXPORT_LANGUAGES, description: 'Language of the column titles and values' })
  @IsIn(EXPORT_LANGUAGES)
  language!: ExportLanguage;

  @ApiProperty({ enum: EXPORT_TYPES })
  @IsIn(EXPORT_TYPES)
  export_type!: (typeof EXPORT_TYPES)[number];

  @ApiProperty({ enum: EXPORT_FORMATS })
  @IsIn(EXPORT_FORMATS)
  export_format!: 'tsv';

  @ApiProperty({
    description: 'First month (YYYY-MM; a full date is accepted, only year and month are used)',
    example: '2026-10',
  })
  @IsString()
  @Matches(YEAR_MONTH, { message: 'time_range_start_date must be a year and month (YYYY-MM) or a date' })
  time_range_start_date!: string;

  @ApiProperty({ description: 'Last month, included (not before the first)', example: '2026-11' })
  @IsString()
  @Matches(YEAR_MONTH, { message: 'time_range_end_date must be a year and month (YYYY-MM) or a date' })
  time_range_end_date!: string;

  @ApiPropertyOptional({ description: 'The chat to export: required when export_type is single_chat' })
  @ValidateIf((o: CreateExportDto) => o.export_type === 'single_chat' || o.chat_id !== undefined)
  @IsDefined({ message: 'chat_id is required when export_type is single_chat' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  chat_id?: string;

  @ApiPropertyOptional({ description: 'A name to find the export by', example: 'November chats' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  name?: string;
}
