import { Trim } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Length, MaxLength } from 'class-validator';

import { IsSegmentRule, parseRuleText } from './segment-rule';

export class UpdateSegmentDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 200, { message: 'name must be 1 to 200 characters' })
  name?: string;

  @ApiPropertyOptional({ description: 'JSON-Logic rule over profile attributes and decision variables' })
  @IsOptional()
  @Transform(parseRuleText)
  @IsSegmentRule()
  rule?: unknown;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string;
}
