import { Trim } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';

import { ACTION_STATUSES, ACTION_TYPES, ActionStatus, ActionType } from '../action-config';

const CONFIG_DESCRIPTION =
  'The configuration of the action type (see docs/services/account.md, Rules engine). JSON body: an object; form: dotted fields (config.url, config.headers.X-Api-Key, config.inputs.national_id) or JSON text in `config`.';

export class CreateActionDto {
  @ApiProperty({ maxLength: 200 })
  @Trim()
  @IsString({ message: 'name must be text' })
  @IsNotEmpty({ message: 'name is required' })
  @MaxLength(200, { message: 'name must be at most 200 characters' })
  name!: string;

  @ApiProperty({ enum: ACTION_TYPES })
  @IsIn(ACTION_TYPES, { message: `type must be one of ${ACTION_TYPES.join(', ')}` })
  type!: ActionType;

  @ApiPropertyOptional({ enum: ACTION_STATUSES, default: 'enabled' })
  @IsOptional()
  @IsIn(ACTION_STATUSES, { message: `status must be one of ${ACTION_STATUSES.join(', ')}` })
  status?: ActionStatus;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: CONFIG_DESCRIPTION,
    example: {
      url: 'https://example.com/hooks/kyc',
      method: 'POST',
      headers: { Authorization: 'Bearer {{.API_TOKEN}}' },
      body: '{"check": {{.check_id | json}}}',
    },
  })
  @IsObject({ message: 'config must be an object with the configuration of the action type' })
  config!: Record<string, unknown>;
}
