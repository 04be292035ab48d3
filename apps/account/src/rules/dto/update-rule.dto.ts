import { RULE_EVENT_TYPE_NAMES } from '@kyc/contracts';
import { Trim } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

import { IsJsonLogicCondition } from './json-logic-condition';

/** Fields given replace the current ones; every change makes a new version of the rule. */
export class UpdateRuleDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @Trim()
  @IsString({ message: 'name must be text' })
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(200, { message: 'name must be at most 200 characters' })
  name?: string;

  @ApiPropertyOptional({ enum: RULE_EVENT_TYPE_NAMES })
  @IsOptional()
  @IsIn(RULE_EVENT_TYPE_NAMES, { message: `event_type must be ${RULE_EVENT_TYPE_NAMES.join(', ')}` })
  event_type?: string;

  @ApiPropertyOptional({ description: 'JSON-Logic (object, or JSON text in a form field)' })
  @IsOptional()
  @IsJsonLogicCondition()
  condition?: unknown;
}
