import { PROCESS_STATUSES, ProcessStatus } from '@kyc/contracts';
import { BodyOptional, ToArray, ToBoolean } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsJSON,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import { FlowStepDto } from '../../flows/dto/flow.dto';
import { FLOW_STEP_TYPES, FlowStepType } from '../../flows/flow.entity';

/** ISO 8601 date-time with an explicit offset (Z or ±hh:mm). */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export class ListProcessesQuery {
  @ApiPropertyOptional({ type: [String], description: 'Repeatable' })
  @IsOptional()
  @ToArray()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  declined_reason?: string[];

  @ApiPropertyOptional({ example: '2026-01-01T00:00:00-05:00', description: 'With end_date; range at most 2 months' })
  @IsOptional()
  @Matches(ISO_WITH_OFFSET, { message: 'start_date must be ISO 8601 with an offset' })
  start_date?: string;

  @ApiPropertyOptional({ example: '2026-02-01T00:00:00-05:00', description: 'With start_date' })
  @IsOptional()
  @Matches(ISO_WITH_OFFSET, { message: 'end_date must be ISO 8601 with an offset' })
  end_date?: string;

  @ApiPropertyOptional({ example: 'expired' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  failure_status?: string;

  @ApiPropertyOptional({
    description:
      'Exact for process_id and flow_id; partial for account_id, document_number, cell_phone, first_name, last_name',
  })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  search?: string;

  @ApiPropertyOptional({ enum: PROCESS_STATUSES })
  @IsOptional()
  @IsIn(PROCESS_STATUSES, { message: 'status must be one of pending, failure, success' })
  status?: ProcessStatus;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  start_key?: string;
}

export class ExpectedInputDto {
  @ApiProperty({ example: 'first_name' })
  @IsString()
  @MaxLength(64)
  name!: string;

  @ApiProperty({ example: 'Ana' })
  @IsString()
  @MaxLength(1000)
  value!: string;
}

/** POST /v1/processes/{id}: the input of the current step (JSON). */
export class StepInputDto {
  @ApiProperty()
  @IsString()
  @MaxLength(64)
  verification_id!: string;

  @ApiProperty({ enum: FLOW_STEP_TYPES })
  @IsIn(FLOW_STEP_TYPES, { message: `type must be one of ${FLOW_STEP_TYPES.join(', ')}` })
  type!: FlowStepType;

  @ApiProperty()
  @IsString()
  @MaxLength(64)
  step_id!: string;

  @ApiPropertyOptional({ type: [ExpectedInputDto], description: 'Omit when the step needs no input' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(30)
  @ValidateNested({ each: true })
  @Type(() => ExpectedInputDto)
  expected_inputs?: ExpectedInputDto[];
}

export class UpdateProcessDto {
  @ApiPropertyOptional({ example: '+573001234567', description: 'With country code' })
  @IsOptional()
  @Matches(/^\+[1-9][0-9]{6,14}$/, { message: 'phone_number must be E.164 (+ and 7 to 15 digits)' })
  phone_number?: string;

  @ApiPropertyOptional({ example: '{"os":"android"}', description: 'Serialized JSON' })
  @IsOptional()
  @MaxLength(4000)
  @IsJSON({ message: 'device_info must be serialized JSON' })
  device_info?: string;
}

/** The body may be left out: going back needs no option. */
@BodyOptional()
export class BackDto {
  @ApiPropertyOptional({ description: 'true: verify the previous step again with the same inputs' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'retry_step must be true or false' })
  retry_step?: boolean;
}

export class OverrideStatusDto {
  @ApiProperty({ enum: ['success', 'failure'] })
  @IsIn(['success', 'failure'], { message: 'override_status must be success or failure' })
  override_status!: 'success' | 'failure';

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

/** POST /v1/processes/{id}/verifications: a step appended to a dynamic process. */
export class AddVerificationDto extends FlowStepDto {}
