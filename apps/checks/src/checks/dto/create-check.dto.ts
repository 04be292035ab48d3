import {
  BRAZIL_REGIONS,
  CHECK_COUNTRIES,
  CheckCountry,
  GENDERS,
  ID_DOCUMENT_TYPES,
  NATIVE_COUNTRIES,
} from '@kyc/contracts';
import { ToBoolean, Trim } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  registerDecorator,
  ValidationOptions,
} from 'class-validator';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** YYYY-MM-DD naming a real calendar day (1990-02-31 is refused). */
export function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isCalendarDate',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: `${String(propertyName)} must be a date YYYY-MM-DD`, ...options },
      validator: { validate: isCalendarDate },
    });
}

/** Form values are strings; JSON clients may send numbers for IDs: keep them as text. */
const ToText = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : value,
  );
const Upper = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value));
const Lower = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));

const DOCUMENT = /^[A-Za-z0-9][A-Za-z0-9.\-/ ]{0,39}$/;
const documentMessage = (field: string) =>
  `${field} must be 1 to 40 letters or digits (dots, dashes, slashes and spaces allowed)`;

/** Vehicle owner document types (national ID, foreign ID or tax ID). */
export const OWNER_DOCUMENT_TYPES = ['national-id', 'foreign-id', 'tax-id'] as const;

/** Periodic revision frequency: daily, weekly, monthly, yearly or <n>d|w|m|y (every n days, weeks, months, years). */
export const WATCH_FREQUENCY = /^(daily|weekly|monthly|yearly|[1-9]\d{0,2}[dwmy])$/;

/** Inputs of POST /v1/checks (form-encoded or JSON). Wire names follow the public checks API (WIRE-NAMES.md). */
export class CreateCheckDto {
  @ApiProperty({ enum: CHECK_COUNTRIES, description: 'Document country (case-insensitive)' })
  @Upper()
  @IsIn(CHECK_COUNTRIES, { message: `country must be one of ${CHECK_COUNTRIES.join(', ')}` })
  country!: CheckCountry;

  @ApiProperty({ description: 'person, vehicle, company or the name of a custom type of this country' })
  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'type is required' })
  @MaxLength(64)
  type!: string;

  @ApiPropertyOptional({
    description:
      'The person authorized the check. Required (true) from API key version 1 on; false never creates a check',
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'user_authorized must be true or false' })
  user_authorized?: boolean;

  @ApiPropertyOptional({ description: 'true forces a new check instead of returning a recent identical one' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'force_creation must be true or false' })
  force_creation?: boolean;

  @ApiPropertyOptional({ maxLength: 128, description: 'External identifier, free reference; no effect on processing' })
  @IsOptional()
  @IsString()
  @MaxLength(128, { message: 'custom_input must be at most 128 characters' })
  custom_input?: string;

  @ApiPropertyOptional({ description: 'Person first name' })
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'first_name must not be empty' })
  @MaxLength(200)
  first_name?: string;

  @ApiPropertyOptional({ description: 'Person or entity last name' })
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'last_name must not be empty' })
  @MaxLength(200)
  last_name?: string;

  @ApiPropertyOptional({ example: '1990-05-31' })
  @IsOptional()
  @IsCalendarDate()
  date_of_birth?: string;

  @ApiPropertyOptional({ example: '2010-01-15', description: 'Document issue date' })
  @IsOptional()
  @IsCalendarDate()
  issue_date?: string;

  @ApiPropertyOptional({ description: 'National ID (in Brazil the CPF, 11 digits)' })
  @IsOptional()
  @ToText()
  @Matches(/^[A-Za-z0-9.-]{1,32}$/, { message: 'national_id must be 1 to 32 letters, digits, dots or dashes' })
  national_id?: string;

  @ApiPropertyOptional({ enum: ID_DOCUMENT_TYPES, description: 'What national_id holds' })
  @IsOptional()
  @Lower()
  @IsIn(ID_DOCUMENT_TYPES, { message: `document_type must be one of ${ID_DOCUMENT_TYPES.join(', ')}` })
  document_type?: string;

  @ApiPropertyOptional({ enum: GENDERS })
  @IsOptional()
  @Lower()
  @IsIn(GENDERS, { message: `gender must be one of ${GENDERS.join(', ')}` })
  gender?: string;

  @ApiPropertyOptional({ enum: NATIVE_COUNTRIES, description: 'Country of birth; required with native_national_id' })
  @IsOptional()
  @Upper()
  @IsIn(NATIVE_COUNTRIES, { message: `native_country must be one of ${NATIVE_COUNTRIES.join(', ')}` })
  native_country?: string;

  @ApiPropertyOptional({ description: 'The person’s ID in the native country' })
  @IsOptional()
  @ToText()
  @Matches(DOCUMENT, { message: documentMessage('native_national_id') })
  native_national_id?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @ToText()
  @Matches(DOCUMENT, { message: documentMessage('foreign_id') })
  foreign_id?: string;
  @ApiPropertyOptional()
  @IsOptional()
  @ToText()
  @Matches(DOCUMENT, { message: documentMessage('passport') })
  passport?: string;
  @ApiPropertyOptional()
  @IsOptional()
  @ToText()
  @Matches(DOCUMENT, { message: documentMessage('driver_license') })
  driver_license?: string;
  @ApiPropertyOptional()
  @IsOptional()
  @ToText()
  @Matches(DOCUMENT, { message: documentMessage('professional_card') })
  professional_card?: string;
  @ApiPropertyOptional()
  @IsOptional()
  @ToText()
  @Matches(DOCUMENT, { message: documentMessage('diplomatic_id') })
  diplomatic_id?: string;
  @ApiPropertyOptional()
  @IsOptional()
  @ToText()
  @Matches(DOCUMENT, { message: documentMessage('birth_certificate') })
  birth_certificate?: string;

  @ApiPropertyOptional({ description: 'ID for Venezuelans working in Peru' })
  @IsOptional()
  @ToText()
  @Matches(DOCUMENT, { message: documentMessage('ptp') })
  ptp?: string;

  @ApiPropertyOptional({ description: 'ID for Venezuelans working in Colombia (also the temporary protection permit)' })
  @IsOptional()
  @ToText()
  @Matches(DOCUMENT, { message: documentMessage('pep') })
  pep?: string;

  @ApiPropertyOptional({ description: 'Chilean identity document number' })
  @IsOptional()
  @ToText()
  @Matches(DOCUMENT, { message: documentMessage('document_number') })
  document_number?: string;

  @ApiPropertyOptional({ description: 'Chilean certificate folio' })
  @IsOptional()
  @ToText()
  @Matches(DOCUMENT, { message: documentMessage('folio') })
  folio?: string;

  @ApiPropertyOptional({ description: 'Verification code of criminal records (Peru, Chile)' })
  @IsOptional()
  @ToText()
  @Matches(DOCUMENT, { message: documentMessage('verification_code') })
  verification_code?: string;

  @ApiPropertyOptional({ description: 'Colombian escrow' })
  @IsOptional()
  @ToText()
  @Matches(DOCUMENT, { message: documentMessage('escrow') })
  escrow?: string;

  @ApiPropertyOptional({ description: 'Vehicle license plate' })
  @IsOptional()
  @ToText()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9\- ]{1,11}$/, {
    message: 'license_plate must be 2 to 12 letters or digits (dashes and spaces allowed)',
  })
  license_plate?: string;

  @ApiPropertyOptional({ description: 'NIV / VIN number' })
  @IsOptional()
  @ToText()
  @Matches(/^[A-Za-z0-9]{5,20}$/, { message: 'vehicle_id must be 5 to 20 letters or digits' })
  vehicle_id?: string;

  @ApiPropertyOptional({ description: 'Vehicle owner ID' })
  @IsOptional()
  @ToText()
  @Matches(DOCUMENT, { message: documentMessage('owner_document_id') })
  owner_document_id?: string;

  @ApiPropertyOptional({ enum: OWNER_DOCUMENT_TYPES })
  @IsOptional()
  @Lower()
  @IsIn(OWNER_DOCUMENT_TYPES, { message: `owner_document_type must be one of ${OWNER_DOCUMENT_TYPES.join(', ')}` })
  owner_document_type?: string;

  @ApiPropertyOptional({ example: '2025-03-31', description: 'Circulation-permit payment day (Chile only)' })
  @IsOptional()
  @IsCalendarDate({ message: 'payment_date must be a date YYYY-MM-DD' })
  payment_date?: string;

  @ApiPropertyOptional({ description: '15-digit IMEI' })
  @IsOptional()
  @ToText()
  @Matches(/^\d{15}$/, { message: 'imei must be exactly 15 digits' })
  imei?: string;

  @ApiPropertyOptional({ description: 'Company name (required for complete checks in Brazil)' })
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'company_name must not be empty' })
  @MaxLength(200)
  company_name?: string;

  @ApiPropertyOptional({ description: 'Company ID used for tax payments' })
  @IsOptional()
  @ToText()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9.\-/ ]{2,31}$/, {
    message: 'tax_id must be 3 to 32 letters or digits (dots, dashes, slashes and spaces allowed)',
  })
  tax_id?: string;

  @ApiPropertyOptional({ description: 'Person phone number, E.164' })
  @IsOptional()
  @ToText()
  @Matches(/^\+?[1-9]\d{6,14}$/, { message: 'phone_number must be a phone number in E.164 form' })
  phone_number?: string;

  @ApiPropertyOptional({
    description:
      'Registry identification (RG in Brazil, alternative registry in Mexico): letters and digits; - * , . are omitted',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' || typeof value === 'number'
      ? String(value)
          .replace(/[-*,.\s]/g, '')
          .toUpperCase()
      : value,
  )
  @Matches(/^[A-Z0-9]{1,20}$/, { message: 'state_id must be 1 to 20 letters or digits (- * , . are omitted)' })
  state_id?: string;

  @ApiPropertyOptional({
    enum: BRAZIL_REGIONS,
    description: 'Brazil only. Default: the region of birth from the CPF (national_id)',
  })
  @IsOptional()
  @Upper()
  @IsIn(BRAZIL_REGIONS, { message: `region must be one of ${BRAZIL_REGIONS.join(', ')}` })
  region?: string;

  @ApiPropertyOptional({ description: 'The report the check is inserted into' })
  @IsOptional()
  @ToText()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'report_id must be 1 to 64 letters, digits, dashes or underscores' })
  report_id?: string;

  @ApiPropertyOptional({ description: 'Periodic revision frequency: daily, weekly, monthly, yearly or <n>d|w|m|y' })
  @IsOptional()
  @Lower()
  @Matches(WATCH_FREQUENCY, {
    message: 'watch must be daily, weekly, monthly, yearly or <n>d, <n>w, <n>m, <n>y (e.g. 3d)',
  })
  watch?: string;
}

/** Wire names of the inputs kept on the check (everything but the control flags and report/custom references). */
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
  'foreign_id',
  'passport',
  'driver_license',
  'professional_card',
  'diplomatic_id',
  'birth_certificate',
  'ptp',
  'pep',
  'document_number',
  'folio',
  'verification_code',
  'escrow',
  'license_plate',
  'vehicle_id',
  'owner_document_id',
  'owner_document_type',
  'payment_date',
  'imei',
  'company_name',
  'tax_id',
  'phone_number',
  'state_id',
  'region',
  'watch',
] as const;

export type CheckInputField = (typeof CHECK_INPUT_FIELDS)[number];
