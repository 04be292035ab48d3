import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

import { FLOW_STEP_TYPES, FlowStepType } from '../flow.entity';

export class FlowFormFieldDto {
  @ApiProperty({ example: 'first_name' })
  @Matches(/^[a-z][a-z0-9_]{0,63}$/, { message: 'name must be a snake_case identifier' })
  name!: string;

  @ApiProperty({ example: 'First name' })
  @IsString()
  @MaxLength(128)
  label!: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  required?: boolean;
}

export class FlowStepDto {
  @ApiProperty({ enum: FLOW_STEP_TYPES })
  @IsIn(FLOW_STEP_TYPES, { message: `type must be one of ${FLOW_STEP_TYPES.join(', ')}` })
  type!: FlowStepType;

  @ApiPropertyOptional({ type: [FlowFormFieldDto], description: 'Required for form steps (1 to 30 fields)' })
  @ValidateIf((o: FlowStepDto) => o.type === 'form' || o.fields !== undefined)
  @IsArray({ message: 'fields is required for form steps' })
  @ArrayMinSize(1, { message: 'a form step needs at least one field' })
  @ArrayMaxSize(30)
  @ValidateNested({ each: true })
  @Type(() => FlowFormFieldDto)
  fields?: FlowFormFieldDto[];

  @ApiPropertyOptional({ description: "Overrides of the tenant's validator configuration (validator steps only)" })
  @IsOptional()
  @IsObject()
  validator_settings?: Record<string, unknown>;
}

export class CreateFlowDto {
  @ApiProperty({ example: 'Onboarding' })
  @IsString()
  @MaxLength(128)
  name!: string;

  @ApiProperty({ type: [FlowStepDto] })
  @IsArray()
  @ArrayMinSize(1, { message: 'a flow needs at least one step' })
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => FlowStepDto)
  steps!: FlowStepDto[];

  @ApiPropertyOptional({ example: 'https://example.com/done' })
  @IsOptional()
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'redirect_url must be an http(s) URL' },
  )
  @MaxLength(2000)
  redirect_url?: string;

  @ApiPropertyOptional({ default: 3600, minimum: 60, maximum: 604800 })
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(604800)
  timeout_seconds?: number;
}

export class UpdateFlowDto extends CreateFlowDto {}
