import { VALIDATOR_ACCOUNT_DOCUMENT_TYPES } from '@kyc/contracts';
import { Trim } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { ACCOUNT_ID_PATTERN, IsCountryCode, IsFullDate, PHONE_PATTERN, UpperTrim } from '../../shared/validators';

/** POST /v1/accounts (form or JSON). */
export class CreateAccountDto {
  @ApiPropertyOptional({ description: 'Pattern [a-zA-Z0-9_.-]+; random alphanumeric when omitted', maxLength: 128 })
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(128, { message: 'account_id must have at most 128 characters' })
  @Matches(ACCOUNT_ID_PATTERN, { message: 'account_id may only contain letters, digits, _ . and -' })
  account_id?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Trim()
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(100)
  first_name?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(100)
  last_name?: string;

  @ApiPropertyOptional({ description: 'With country code, e.g. +573001234567' })
  @IsOptional()
  @Trim()
  @Matches(PHONE_PATTERN, { message: 'phone_number must be a phone number with country code (7 to 15 digits)' })
  phone_number?: string;

  @ApiPropertyOptional({ description: 'ISO 3166 alpha-2' })
  @IsOptional()
  @UpperTrim()
  @IsCountryCode()
  country?: string;

  @ApiPropertyOptional({ maxLength: 32 })
  @IsOptional()
  @Trim()
  @Matches(/^[A-Za-z0-9.-]{1,32}$/, { message: 'document_number must be 1 to 32 letters, digits, dots or dashes' })
  document_number?: string;

  @ApiPropertyOptional({ enum: VALIDATOR_ACCOUNT_DOCUMENT_TYPES })
  @IsOptional()
  @IsIn(VALIDATOR_ACCOUNT_DOCUMENT_TYPES, {
    message: `document_type must be one of ${VALIDATOR_ACCOUNT_DOCUMENT_TYPES.join(', ')}`,
  })
  document_type?: string;

  @ApiPropertyOptional({ description: 'RFC 3339 date, YYYY-MM-DD' })
  @IsOptional()
  @IsFullDate()
  document_issue_date?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @Trim()
  @Matches(/^[A-Za-z0-9_.]{1,100}$/, { message: 'facebook_user must be 1 to 100 letters, digits, _ or .' })
  facebook_user?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @Trim()
  @Matches(/^[A-Za-z0-9_]{1,100}$/, { message: 'twitter_user must be 1 to 100 letters, digits or _' })
  twitter_user?: string;
}
