import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

/** GET /v1/health (also /v1/checks/health). */
export class HealthQuery {
  @ApiProperty({ description: 'Country of the databases, uppercase ISO 3166 alpha-2 (ALL: international databases)' })
  @Matches(/^([A-Z]{2}|ALL)$/, { message: 'country must be an uppercase ISO 3166 alpha-2 code (or ALL)' })
  country!: string;

  @ApiPropertyOptional({
    description:
      'Unix time in seconds: the current time gives the current status; a time of a past day the hourly status of that day. Default: now',
  })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'unixTimestampSeconds must be an integer (seconds since 1970-01-01 UTC)' })
  @Min(0, { message: 'unixTimestampSeconds must be an integer (seconds since 1970-01-01 UTC)' })
  unixTimestampSeconds?: number;

  @ApiPropertyOptional({ description: 'Offset of the local time from UTC in seconds (Colombia: -18000). Default 0' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'unixtimezoneOffsetSeconds must be an integer between -50400 and 50400' })
  @Min(-50_400, { message: 'unixtimezoneOffsetSeconds must be an integer between -50400 and 50400' })
  @Max(50_400, { message: 'unixtimezoneOffsetSeconds must be an integer between -50400 and 50400' })
  unixtimezoneOffsetSeconds?: number;
}
