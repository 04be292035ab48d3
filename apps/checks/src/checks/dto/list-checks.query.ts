import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class ListChecksQuery {
  @ApiPropertyOptional({ description: 'Only checks of this report' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  report_id?: string;

  @ApiPropertyOptional({ description: 'Page start key from the `next` link' })
  @IsOptional()
  @IsString()
  start_key?: string;
}
