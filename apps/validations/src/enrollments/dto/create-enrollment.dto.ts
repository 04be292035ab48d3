import {
  BLOCK_REASONS,
  BlockReason,
  ENROLLMENT_TYPES,
  EnrollmentType,
  FACE_SEARCH_COUNTRIES,
  PHONE_COUNTRIES,
  PHONE_TYPES,
  PhoneType,
} from '@kyc/contracts';
import { ToBoolean, Trim } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';

import {
  ACCOUNT_ID_PATTERN,
  IsCountryForType,
  MustBeTrue,
  OnlyForTypes,
  PHONE_PATTERN,
  UpperTrim,
} from '../../shared/validators';

/** POST /v1/enrollments (form or JSON). */
export class CreateEnrollmentDto {
  @ApiProperty({ enum: ENROLLMENT_TYPES })
  @IsIn(ENROLLMENT_TYPES, { message: `type must be one of ${ENROLLMENT_TYPES.join(', ')}` })
  type!: EnrollmentType;

  @ApiProperty({ description: 'must be true' })
  @ToBoolean()
  @MustBeTrue()
  user_authorized!: boolean;

  @ApiPropertyOptional({
    description: 'linked account; created if omitted or unknown (also accepted as a query parameter)',
  })
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(128, { message: 'account_id must have at most 128 characters' })
  @Matches(ACCOUNT_ID_PATTERN, { message: 'account_id may only contain letters, digits, _ . and -' })
  account_id?: string;

  @ApiPropertyOptional({
    description: `phone-verification: ${PHONE_COUNTRIES.join(', ')} (optional if the account has it); face-search (required): ${FACE_SEARCH_COUNTRIES.join(', ')}`,
  })
  @UpperTrim()
  @IsCountryForType({
    'phone-verification': { countries: PHONE_COUNTRIES, required: false },
    'face-search': { countries: FACE_SEARCH_COUNTRIES, required: true },
  })
  country?: string;

  @ApiPropertyOptional({ description: 'phone-verification (required): with country code' })
  @ValidateIf((o: CreateEnrollmentDto) => o.type === 'phone-verification' || o.phone_number !== undefined)
  @Trim()
  @OnlyForTypes(['phone-verification'])
  @IsNotEmpty({ message: 'phone_number is required for phone-verification' })
  @Matches(PHONE_PATTERN, { message: 'phone_number must be a phone number with country code (7 to 15 digits)' })
  phone_number?: string;

  @ApiPropertyOptional({ enum: PHONE_TYPES, description: 'phone-verification (required); one number per type' })
  @ValidateIf((o: CreateEnrollmentDto) => o.type === 'phone-verification' || o.phone_type !== undefined)
  @OnlyForTypes(['phone-verification'])
  @IsIn(PHONE_TYPES, { message: `phone_type must be one of ${PHONE_TYPES.join(', ')}` })
  phone_type?: PhoneType;

  @ApiPropertyOptional({ description: 'email-verification (required)' })
  @ValidateIf((o: CreateEnrollmentDto) => o.type === 'email-verification' || o.email !== undefined)
  @Trim()
  @OnlyForTypes(['email-verification'])
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ enum: ['none'], description: 'face-recognition only; needs authorization' })
  @IsOptional()
  @OnlyForTypes(['face-recognition'])
  @IsIn(['none'], { message: 'confirmation must be none' })
  confirmation?: 'none';

  @ApiPropertyOptional({ enum: BLOCK_REASONS, description: 'face-search (required): why the face is blocked' })
  @ValidateIf((o: CreateEnrollmentDto) => o.type === 'face-search' || o.fraud_reason !== undefined)
  @OnlyForTypes(['face-search'])
  @IsIn(BLOCK_REASONS, { message: `fraud_reason must be one of ${BLOCK_REASONS.join(', ')}` })
  fraud_reason?: BlockReason;
}

export class EnrollmentAccountQuery {
  @ApiPropertyOptional({ description: 'account id (alternative to the body field); created if empty' })
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(128, { message: 'account_id must have at most 128 characters' })
  @Matches(ACCOUNT_ID_PATTERN, { message: 'account_id may only contain letters, digits, _ . and -' })
  account_id?: string;
}
