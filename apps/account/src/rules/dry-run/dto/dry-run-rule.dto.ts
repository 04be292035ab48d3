import { ApiAnyJson, Trim } from '@kyc/platform';
import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

import { IsJsonLogicCondition } from '../../dto/json-logic-condition';

export class DryRunRuleDto {
  @ApiProperty({
    description: 'A finished check of the caller’s account',
    example: 'CHK019ab9f2c4e03f1a2b3c4d5e6f7a8b9c',
  })
  @Trim()
  @IsString({ message: 'check_id must be text' })
  @IsNotEmpty({ message: 'check_id is required' })
  @MaxLength(64, { message: 'check_id must be at most 64 characters' })
  check_id!: string;

  @ApiAnyJson({
    required: false,
    description:
      'A condition to try instead of the saved one (e.g. an edit not saved yet), validated as on save: an object in a JSON body, JSON text in a form field',
    example: '{"<":[{"var":"score"},0.5]}',
  })
  @IsOptional()
  @IsJsonLogicCondition()
  condition?: unknown;
}
