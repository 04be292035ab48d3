import { RULE_EVENT_TYPE_NAMES } from '@kyc/contracts';
import { Trim } from '@kyc/platform';
import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';

import { IsJsonLogicCondition } from './json-logic-condition';

export class CreateRuleDto {
  @ApiProperty({ maxLength: 200 })
  @Trim()
  @IsString({ message: 'name must be text' })
  @IsNotEmpty({ message: 'name is required' })
  @MaxLength(200, { message: 'name must be at most 200 characters' })
  name!: string;

  @ApiProperty({ enum: RULE_EVENT_TYPE_NAMES })
  @IsIn(RULE_EVENT_TYPE_NAMES, { message: `event_type must be ${RULE_EVENT_TYPE_NAMES.join(', ')}` })
  event_type!: string;

  @ApiProperty({
    description:
      'JSON-Logic over the event variables (GET /v1/bre/variables-spec): an object in a JSON body, JSON text in a form field',
    example: '{"and":[{"==":[{"var":"country"},"CO"]},{"<":[{"var":"score"},0.5]}]}',
  })
  @IsJsonLogicCondition()
  condition: unknown;
}
