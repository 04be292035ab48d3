import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { CHECK_COUNTRIES, CheckCountry, GENDERS, ID_DOCUMENT_TYPES, NATIVE_COUNTRIES } from '@kyc/contracts';
import { ToBoolean, Trim } from '@kyc/platform';

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Inputs of POST /v1/checks (form-encoded). Wire names follow the public checks API. */
export class CreateCheckDto {
  @ApiProperty({ enum: CHECK_COUNTRIES })
  @IsIn(CHECK_COUNTRIES, { message: `country must be one of ${CHECK_COUNTRIES.join(', ')}` })
  country: CheckCountry;

  @ApiProperty({ description: 'person, vehicle, company or a custom type name' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  type: string;

  @ApiPropertyOptional({ description: 'Required (true) from API key version 1 on' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'user_authorized must be true or false' })
  user_authorized?: boolean;

  @ApiPropertyOptional({ description: 'Force a new check instead of returning a recent identical one' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'force_creation must be true or false' })
  force_creation?: boolean;

  @ApiPropertyOptional({ maxLength: 128, description: 'External identifier, free reference' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  custom_input?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(200)
  first_name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(200)
  last_name?: string;

  @ApiPropertyOptional({ example: '1990-05-31' })
  @IsOptional()
  @Matches(DATE, { message: 'date_of_birth must be a date YYYY-MM-DD' })
  date_of_birth?: string;

  @ApiPropertyOptional({ example: '2010-01-15' })
  @IsOptional()
  @Matches(DATE, { message: 'issue_date must be a date YYYY-MM-DD' })
  issue_date?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Trim()
  @Matches(/^[A-Za-z0-9.\-]{1,32}$/, { message: 'national_id must be 1 to 32 letters, digits, dots or dashes' })
  national_id?: string;

  @ApiPropertyOptional({ enum: ID_DOCUMENT_TYPES })
  @IsOptional()
  @IsIn(ID_DOCUMENT_TYPES, { message: `document_type must be one of ${ID_DOCUMENT_TYPES.join(', ')}` })
  document_type?: string;

  @ApiPropertyOptional({ enum: GENDERS })
  @IsOptional()
  @IsIn(GENDERS, { message: `gender must be one of ${GENDERS.join(', ')}` })
  gender?: string;

  @ApiPropertyOptional({ enum: NATIVE_COUNTRIES })
  @IsOptional()
  @IsIn(NATIVE_COUNTRIES, { message: `native_country must be one of ${NATIVE_COUNTRIES.join(', ')}` })
  native_country?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(32)
  native_national_id?: string;

  @ApiPropertyOptional({ description: 'E.164 phone number' })
  @IsOptional()
  @Matches(/^\+?[1-9]\d{6,14}$/, { message: 'phone_number must be a phone number in E.164 form' })
  phone_number?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  report_id?: string;
}

/** Wire names of the inputs kept on the check (everything but the control flags). */
export const CHECK_INPUT_FIELDS = [
  'first_name',
  'last_name',
  'date_of_birth',
  'issue_date',
  'national_id',
  'document_type',
  'gender',
  'native_country',
  'native_national_id',
  'phone_number',
] as const;
