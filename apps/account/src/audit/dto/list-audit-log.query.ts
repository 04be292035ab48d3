import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class ListAuditLogQuery {
  @ApiPropertyOptional({ description: 'user, role, rule, action, env' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  resource_type?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(256)
  resource_id?: string;

  @ApiPropertyOptional({ description: 'e.g. user.status_changed' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  action?: string;

  @ApiPropertyOptional({ description: 'actor user id or username' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  actor?: string;

  @ApiPropertyOptional({ description: 'ISO 8601' })
  @IsOptional()
  @IsISO8601({}, { message: 'since must be an ISO 8601 date-time' })
  since?: string;

  @ApiPropertyOptional({ description: 'ISO 8601' })
  @IsOptional()
  @IsISO8601({}, { message: 'until must be an ISO 8601 date-time' })
  until?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 200 })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === undefined ? undefined : Number(value)))
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  start_key?: string;
}
