import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export class EnqueueLogDto {
  @ApiPropertyOptional({ description: 'The process the entry is about' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  process_id?: string;

  @ApiPropertyOptional({ enum: LOG_LEVELS, default: 'info' })
  @IsOptional()
  @IsIn(LOG_LEVELS, { message: `level must be one of ${LOG_LEVELS.join(', ')}` })
  level?: (typeof LOG_LEVELS)[number];

  @ApiProperty({ example: 'camera permission denied' })
  @IsString()
  @MaxLength(2000)
  message!: string;
}
