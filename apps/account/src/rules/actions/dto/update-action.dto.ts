import { Trim } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';

import { ACTION_STATUSES, ACTION_TYPES, ActionStatus, ActionType } from '../action-config';

/** Fields given replace the current ones; `config` is replaced whole, and is required when `type` changes. */
export class UpdateActionDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @Trim()
  @IsString({ message: 'name must be text' })
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(200, { message: 'name must be at most 200 characters' })
  name?: string;

  @ApiPropertyOptional({ enum: ACTION_TYPES })
  @IsOptional()
  @IsIn(ACTION_TYPES, { message: `type must be one of ${ACTION_TYPES.join(', ')}` })
  type?: ActionType;

  @ApiPropertyOptional({ enum: ACTION_STATUSES })
  @IsOptional()
  @IsIn(ACTION_STATUSES, { message: `status must be one of ${ACTION_STATUSES.join(', ')}` })
  status?: ActionStatus;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject({ message: 'config must be an object with the configuration of the action type' })
  config?: Record<string, unknown>;
}
