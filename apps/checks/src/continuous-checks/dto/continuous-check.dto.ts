import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

import { WATCH_FREQUENCY } from '../../checks/dto/create-check.dto';

/** Documentation of POST /v1/continuous-checks (the service validates the body and lists every bad field). */
export class CreateContinuousCheckDto {
  @ApiProperty({
    description: 'The check of this tenant to repeat with the same inputs',
    pattern: '\\S',
    maxLength: 64,
  })
  check_id!: string;

  @ApiProperty({
    description: 'daily, weekly, monthly, yearly or <n>d|w|m|y (e.g. 3d, 2w), n from 1 to 999 (trimmed, any case)',
    pattern: WATCH_FREQUENCY.source,
  })
  frequency!: string;

  @ApiProperty({
    description:
      'YYYY-MM-DD (inclusive, UTC); must allow at least one run (the first run is one period after creation)',
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    format: 'date',
  })
  end_date!: string;

  @ApiPropertyOptional({ enum: ['enabled', 'disabled'], description: 'default enabled' })
  status?: string;

  @ApiPropertyOptional({
    enum: [0, 1],
    nullable: true,
    description:
      'Hook API key version (shape of the checks.check.finished payload of the runs); must match the version of the key in use; default (or null): that version',
  })
  api_key_version?: string;
}

/** Documentation of PUT /v1/continuous-checks/{id}. */
export class UpdateContinuousCheckDto {
  @ApiProperty({
    description: 'daily, weekly, monthly, yearly or <n>d|w|m|y, n from 1 to 999 (trimmed, any case)',
    pattern: WATCH_FREQUENCY.source,
  })
  frequency!: string;

  @ApiProperty({ enum: ['enabled', 'disabled'] })
  status!: string;

  @ApiPropertyOptional({
    enum: [0, 1],
    nullable: true,
    description: 'Hook API key version; must match the version of the key in use; null: unchanged',
  })
  api_key_version?: string;
}

export class ListContinuousChecksQuery {
  @ApiPropertyOptional({ description: 'Page start key from the `next` link' })
  @IsOptional()
  @IsString()
  start_key?: string;
}
