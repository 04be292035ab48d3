import {
  CONFIGURABLE_VALIDATORS,
  ConfigurableValidator,
  DOCUMENT_CONFIG_COUNTRIES,
  DOCUMENT_TYPES,
  DOCUMENT_VERSIONS,
} from '@kyc/contracts';
import { ToArray, ToBoolean, Trim } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

import { ToNumber, UpperTrim } from '../../shared/validators';

const SWITCH = ['enabled', 'disabled'] as const;
const switchMessage = (name: string) => `${name} must be enabled or disabled`;

/**
 * PUT /v1/config (form or JSON): one validator's fields. Generic bounds here; the per-validator
 * bounds and which fields a validator has are checked by ValidatorConfigService (one table).
 */
export class UpdateConfigDto {
  @ApiProperty({ enum: CONFIGURABLE_VALIDATORS })
  @IsIn(CONFIGURABLE_VALIDATORS, { message: `validator must be one of ${CONFIGURABLE_VALIDATORS.join(', ')}` })
  validator!: ConfigurableValidator;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'face-recognition; default 0.65' })
  @IsOptional()
  @ToNumber()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'threshold must be a number from 0 to 1' })
  @Min(0, { message: 'threshold must be a number from 0 to 1' })
  @Max(1, { message: 'threshold must be a number from 0 to 1' })
  threshold?: number;

  @ApiPropertyOptional({ description: 'seconds; max 600 (phone, e-mail), 21600 (document, face)' })
  @IsOptional()
  @ToNumber()
  @IsInt({ message: 'timeout must be a whole number of seconds' })
  @Min(1, { message: 'timeout must be at least 1 second' })
  timeout?: number;

  @ApiPropertyOptional({ description: 'document max 3, face max 2, e-mail and phone max 4' })
  @IsOptional()
  @ToNumber()
  @IsInt({ message: 'allowed_retries must be a whole number' })
  @Min(0, { message: 'allowed_retries must be at least 0' })
  allowed_retries?: number;

  @ApiPropertyOptional({ description: 'seconds; document 1 to 1800, face 1 to 300' })
  @IsOptional()
  @ToNumber()
  @IsInt({ message: 'retry_ttl must be a whole number of seconds' })
  @Min(1, { message: 'retry_ttl must be at least 1 second' })
  retry_ttl?: number;

  @ApiPropertyOptional({ enum: SWITCH })
  @IsOptional()
  @IsIn(SWITCH, { message: switchMessage('use_manual_review') })
  use_manual_review?: 'enabled' | 'disabled';

  @ApiPropertyOptional()
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'include_face_search must be true or false' })
  include_face_search?: boolean;

  @ApiPropertyOptional({ description: 'face-recognition: seconds an enrollment waits for its photo' })
  @IsOptional()
  @ToNumber()
  @IsInt({ message: 'enrollment_timeout must be a whole number of seconds' })
  @Min(1, { message: 'enrollment_timeout must be at least 1 second' })
  enrollment_timeout?: number;

  // document_config of document-validation
  @ApiPropertyOptional({ enum: DOCUMENT_CONFIG_COUNTRIES, description: 'document_config: country' })
  @IsOptional()
  @UpperTrim()
  @IsIn(DOCUMENT_CONFIG_COUNTRIES, { message: `country must be one of ${DOCUMENT_CONFIG_COUNTRIES.join(', ')}` })
  country?: string;

  @ApiPropertyOptional({ enum: DOCUMENT_TYPES, description: 'document_config: required when changing a switch' })
  @IsOptional()
  @IsIn(DOCUMENT_TYPES, { message: `document_type must be one of ${DOCUMENT_TYPES.join(', ')}` })
  document_type?: string;

  @ApiPropertyOptional({ enum: DOCUMENT_VERSIONS, isArray: true, description: 'document_config: omitted means all' })
  @IsOptional()
  @ToArray()
  @IsIn(DOCUMENT_VERSIONS, { each: true, message: `document_version must be among ${DOCUMENT_VERSIONS.join(', ')}` })
  document_version?: string[];

  @ApiPropertyOptional({ enum: SWITCH })
  @IsOptional()
  @IsIn(SWITCH, { message: switchMessage('manipulation_detection') })
  manipulation_detection?: 'enabled' | 'disabled';

  @ApiPropertyOptional({ enum: SWITCH })
  @IsOptional()
  @IsIn(SWITCH, { message: switchMessage('photo_of_photo_detection') })
  photo_of_photo_detection?: 'enabled' | 'disabled';

  @ApiPropertyOptional({ enum: SWITCH })
  @IsOptional()
  @IsIn(SWITCH, { message: switchMessage('photocopy_detection') })
  photocopy_detection?: 'enabled' | 'disabled';

  @ApiPropertyOptional({ enum: SWITCH })
  @IsOptional()
  @IsIn(SWITCH, { message: switchMessage('data_consistency') })
  data_consistency?: 'enabled' | 'disabled';

  @ApiPropertyOptional({ enum: SWITCH })
  @IsOptional()
  @IsIn(SWITCH, { message: switchMessage('government_database') })
  government_database?: 'enabled' | 'disabled';

  // email-verification texts
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  email_subject?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  email_title?: string;

  @ApiPropertyOptional({ maxLength: 1000, description: 'text before the code' })
  @IsOptional()
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(1000)
  email_text_1?: string;

  @ApiPropertyOptional({ maxLength: 1000, description: 'text after the code' })
  @IsOptional()
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(1000)
  email_text_2?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Trim()
  @IsEmail({}, { message: 'support_email must be an e-mail address' })
  support_email?: string;

  @ApiPropertyOptional({ maxLength: 30, description: 'phone-verification: custom text in OTP messages' })
  @IsOptional()
  @Trim()
  @IsString()
  @MinLength(1, { message: 'custom_name must have 1 to 30 characters' })
  @MaxLength(30, { message: 'custom_name must have 1 to 30 characters' })
  custom_name?: string;
}

/** The fields of UpdateConfigDto that are settings (not the document_config selectors). */
export const SETTING_FIELDS = [
  'threshold',
  'timeout',
  'allowed_retries',
  'retry_ttl',
  'use_manual_review',
  'include_face_search',
  'enrollment_timeout',
  'email_subject',
  'email_title',
  'email_text_1',
  'email_text_2',
  'support_email',
  'custom_name',
] as const;

export const DOCUMENT_CONFIG_FIELDS = [
  'country',
  'document_type',
  'document_version',
  'manipulation_detection',
  'photo_of_photo_detection',
  'photocopy_detection',
  'data_consistency',
  'government_database',
] as const;

export class ValidatorQuery {
  @ApiProperty({ enum: CONFIGURABLE_VALIDATORS })
  @IsIn(CONFIGURABLE_VALIDATORS, { message: `validator must be one of ${CONFIGURABLE_VALIDATORS.join(', ')}` })
  validator!: ConfigurableValidator;
}

/** DELETE /v1/config: validator, type (omitted resets all of it), name (document_config: one country). */
export class ResetConfigQuery extends ValidatorQuery {
  @ApiPropertyOptional({ description: 'the configuration to reset; omitted resets the whole validator' })
  @IsOptional()
  @IsString()
  type?: string;

  @ApiPropertyOptional({ description: 'type=document_config: the country whose document configuration is reset' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsIn(DOCUMENT_CONFIG_COUNTRIES, { message: `name must be one of ${DOCUMENT_CONFIG_COUNTRIES.join(', ')}` })
  name?: string;
}
