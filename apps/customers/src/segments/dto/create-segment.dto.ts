import { Trim } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsOptional, IsString, Length, MaxLength } from 'class-validator';

import { IsSegmentRule, parseRuleText } from '../../profiles/dto/segment-rule';

export class CreateSegmentDto {
  @ApiProperty({ maxLength: 200 })
  @Trim()
  @IsString()
  @Length(1, 200, { message: 'name must be 1 to 200 characters' })
  name!: string;

  @ApiProperty({
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'boolean' },
      { type: 'string', description: 'The rule as JSON text' },
    ],
    description:
      'JSON-Logic rule over profile attributes and decision variables: an object or true / false (or its JSON text)',
  })
  @Transform(parseRuleText)
  @IsDefined({ message: 'rule is required' })
  @IsSegmentRule()
  rule: unknown;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string;
}
