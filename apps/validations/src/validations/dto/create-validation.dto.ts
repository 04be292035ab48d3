import {
  DOCUMENT_COUNTRIES,
  DOCUMENT_TYPES,
  FACE_SEARCH_COUNTRIES,
  FACE_SUBVALIDATIONS,
  FaceSubvalidation,
  PHONE_TYPES,
  PhoneType,
  SPEECH_PRECISIONS,
  VALIDATION_TYPES,
  ValidationType,
  VERIFY_CHANNELS,
  VerifyChannel,
} from '@kyc/contracts';
import { ToArray, ToBoolean, Trim } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsBoolean,
  IsIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateIf,
} from 'class-validator';

import {
  ACCOUNT_ID_PATTERN,
  IsCountryForType,
  MustBeTrue,
  OnlyForTypes,
  ToNumber,
  UpperTrim,
} from '../../shared/validators';
import { maxTimeout } from '../../validator-config/validator-settings';

/** timeout: whole seconds from 1 to the type's maximum (600 phone and e-mail, 21600 the others). */
function IsTimeoutForType(): PropertyDecorator {
  return (target: object, key: string | symbol) =>
    registerDecorator({
      name: 'isTimeoutForType',
      target: target.constructor,
      propertyName: String(key),
      validator: {
        validate(value: unknown, args) {
          const type = (args?.object as { type?: ValidationType }).type;
          const max = type && (VALIDATION_TYPES as readonly string[]).includes(type) ? maxTimeout(type) : 21600;
          return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;
        },
        defaultMessage(args) {
          const type = (args?.object as { type?: ValidationType }).type;
          const max = type && (VALIDATION_TYPES as readonly string[]).includes(type) ? maxTimeout(type) : 21600;
          return `timeout must be whole seconds from 1 to ${max}${type ? ` for ${type}` : ''}`;
        },
      },
    });
}

/** A JSON object, also accepted as JSON text (form bodies). */
const ToObject = () =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  });

/** POST /v1/validations (form or JSON). */
export class CreateValidationDto {
  @ApiProperty({ enum: VALIDATION_TYPES })
  @IsIn(VALIDATION_TYPES, { message: `type must be one of ${VALIDATION_TYPES.join(', ')}` })
  type!: ValidationType;

  @ApiProperty({ description: 'must be true' })
  @ToBoolean()
  @MustBeTrue()
  user_authorized!: boolean;

  @ApiPropertyOptional({
    description: 'document-validation: created if omitted; other types: the account of the enrollment (required)',
  })
  @ValidateIf((o: CreateValidationDto) => o.type !== 'document-validation' || o.account_id !== undefined)
  @Trim()
  @IsString({ message: 'account_id is required (the account of the enrollment)' })
  @MaxLength(128, { message: 'account_id must have at most 128 characters' })
  @Matches(ACCOUNT_ID_PATTERN, { message: 'account_id may only contain letters, digits, _ . and -' })
  account_id?: string;

  @ApiPropertyOptional({ maxLength: 128, description: 'external identifier, reference only' })
  @IsOptional()
  @IsString()
  @MaxLength(128, { message: 'custom_input must have at most 128 characters' })
  custom_input?: string;

  @ApiPropertyOptional({
    description: `document-validation: ${DOCUMENT_COUNTRIES.join(', ')}; face-search: ${FACE_SEARCH_COUNTRIES.join(', ')}`,
  })
  @UpperTrim()
  @IsCountryForType({
    'document-validation': { countries: DOCUMENT_COUNTRIES, required: true },
    'face-search': { countries: FACE_SEARCH_COUNTRIES, required: true },
  })
  country?: string;

  @ApiPropertyOptional({ enum: DOCUMENT_TYPES, description: 'document-validation (required)' })
  @ValidateIf((o: CreateValidationDto) => o.type === 'document-validation' || o.document_type !== undefined)
  @OnlyForTypes(['document-validation'])
  @IsIn(DOCUMENT_TYPES, { message: `document_type must be one of ${DOCUMENT_TYPES.join(', ')}` })
  document_type?: string;

  @ApiPropertyOptional({ enum: ['en', 'es', 'pt-BR'], description: 'phone-verification (required): message language' })
  @ValidateIf((o: CreateValidationDto) => o.type === 'phone-verification' || o.phone_locale !== undefined)
  @OnlyForTypes(['phone-verification'])
  @IsIn(['en', 'es', 'pt-BR'], { message: 'phone_locale must be one of en, es, pt-BR' })
  phone_locale?: 'en' | 'es' | 'pt-BR';

  @ApiPropertyOptional({ enum: ['es', 'en'], description: 'email-verification: e-mail language (default es)' })
  @IsOptional()
  @OnlyForTypes(['email-verification'])
  @IsIn(['es', 'en'], { message: 'language must be es or en' })
  language?: 'es' | 'en';

  @ApiPropertyOptional({ enum: VERIFY_CHANNELS, description: 'phone-verification (required)' })
  @ValidateIf((o: CreateValidationDto) => o.type === 'phone-verification' || o.verify_channel !== undefined)
  @OnlyForTypes(['phone-verification'])
  @IsIn(VERIFY_CHANNELS, { message: `verify_channel must be one of ${VERIFY_CHANNELS.join(', ')}` })
  verify_channel?: VerifyChannel;

  @ApiPropertyOptional({ enum: PHONE_TYPES, description: 'phone-verification (required): an enrolled phone type' })
  @ValidateIf((o: CreateValidationDto) => o.type === 'phone-verification' || o.phone_type !== undefined)
  @OnlyForTypes(['phone-verification'])
  @IsIn(PHONE_TYPES, { message: `phone_type must be one of ${PHONE_TYPES.join(', ')}` })
  phone_type?: PhoneType;

  @ApiPropertyOptional({
    enum: FACE_SUBVALIDATIONS,
    isArray: true,
    description: 'face-recognition; default similarity',
  })
  @IsOptional()
  @ToArray()
  @OnlyForTypes(['face-recognition'])
  @ArrayNotEmpty({ message: 'subvalidations must name at least one subvalidation' })
  @ArrayMaxSize(3)
  @IsIn(FACE_SUBVALIDATIONS, { each: true, message: `subvalidations must be among ${FACE_SUBVALIDATIONS.join(', ')}` })
  subvalidations?: FaceSubvalidation[];

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'face-recognition; default 0.65 (or the config)' })
  @IsOptional()
  @ToNumber()
  @OnlyForTypes(['face-recognition'])
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'threshold must be a number from 0 to 1' })
  @Min(0, { message: 'threshold must be a number from 0 to 1' })
  @Max(1, { message: 'threshold must be a number from 0 to 1' })
  threshold?: number;

  @ApiPropertyOptional({ enum: SPEECH_PRECISIONS, description: 'required with the speech_match subvalidation' })
  @ValidateIf(
    (o: CreateValidationDto) =>
      (Array.isArray(o.subvalidations) && o.subvalidations.includes('speech_match')) ||
      o.speech_precision !== undefined,
  )
  @OnlyForTypes(['face-recognition'])
  @IsIn(SPEECH_PRECISIONS, {
    message: `speech_precision must be one of ${SPEECH_PRECISIONS.join(', ')} (required for speech_match)`,
  })
  speech_precision?: string;

  @ApiPropertyOptional({ description: 'seconds; default 300 (or the config); max 600 phone and e-mail, 21600 others' })
  @IsOptional()
  @ToNumber()
  @IsTimeoutForType()
  timeout?: number;

  @ApiPropertyOptional({ description: 'validation_id of the failed validation this one retries' })
  @IsOptional()
  @Trim()
  @OnlyForTypes(['document-validation', 'face-recognition'])
  @Matches(/^VLD[0-9a-f]{32}$/, { message: 'retry_of_id must be a validation_id' })
  retry_of_id?: string;

  @ApiPropertyOptional({ description: 'skip manual review when the review team is unavailable per schedule' })
  @IsOptional()
  @ToBoolean()
  @OnlyForTypes(['document-validation', 'face-recognition'])
  @IsBoolean({ message: 'skip_unavailable_manual_review must be true or false' })
  skip_unavailable_manual_review?: boolean;

  @ApiPropertyOptional({ description: 'document-validation: a custom background check type to link' })
  @IsOptional()
  @Trim()
  @OnlyForTypes(['document-validation'])
  @Matches(/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/, {
    message: 'custom_type must be the name of a custom type (1 to 64 characters)',
  })
  custom_type?: string;

  @ApiPropertyOptional({
    description:
      'Identity flows: the flow validator block (threshold, timeout, allowed_retries, retry_ttl, use_manual_review, include_face_search, document_config, e-mail texts, custom_name), preferred over the tenant config; JSON object (or JSON text in forms)',
  })
  @IsOptional()
  @ToObject()
  @IsObject({ message: 'validator_settings must be a JSON object' })
  validator_settings?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Identity: the process the validation belongs to' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  process_id?: string;

  @ApiPropertyOptional({ description: 'Identity: the flow the validation belongs to' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  flow_id?: string;
}

/** POST /v1/validations/{validation_id}: the code the user received. */
export class PerformValidationDto {
  @ApiProperty({ enum: ['email-verification', 'phone-verification'] })
  @IsIn(['email-verification', 'phone-verification'], {
    message: 'type must be email-verification or phone-verification',
  })
  type!: 'email-verification' | 'phone-verification';

  @ApiProperty({ description: 'the code the user received' })
  @Trim()
  @IsString({ message: 'token is required' })
  @Matches(/^\S{1,16}$/, { message: 'token must be the code the user received' })
  token!: string;
}
