import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

import { IsSegmentRule, parseRuleText } from './segment-rule';

/** `POST /v1/customers/query`: the customers a JSON-Logic rule selects (the variables of segments). */
export class QueryCustomersDto {
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
  @IsDefined({ message: 'query is required' })
  @IsSegmentRule()
  query: unknown;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Transform(({ value }) => (value === undefined || value === '' ? undefined : Number(value)))
  @IsInt({ message: 'limit must be an integer from 1 to 100' })
  @Min(1, { message: 'limit must be an integer from 1 to 100' })
  @Max(100, { message: 'limit must be an integer from 1 to 100' })
  limit?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  start_key?: string;
}
