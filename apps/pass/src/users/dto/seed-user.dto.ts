import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

import { DOCUMENT_TYPES } from '../../scopes/scopes';

export class SeedIdentityDto {
  @ApiProperty()
  @IsBoolean()
  verified!: boolean;

  @ApiPropertyOptional({ example: 'high' })
  @IsOptional()
  @IsIn(['low', 'medium', 'high'])
  verification_level?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  first_name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  last_name?: string;

  @ApiPropertyOptional({ enum: ['M', 'F', 'O'] })
  @IsOptional()
  @IsIn(['M', 'F', 'O'])
  gender?: string;

  @ApiPropertyOptional({ example: '1990-04-01' })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'birthdate must be YYYY-MM-DD' })
  birthdate?: string;

  @ApiPropertyOptional({ example: 'CO' })
  @IsOptional()
  @Matches(/^[A-Z]{2}$/, { message: 'nationality must be an ISO 3166-1 alpha-2 code' })
  nationality?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(40)
  document_number?: string;

  @ApiPropertyOptional({ enum: DOCUMENT_TYPES })
  @IsOptional()
  @IsIn([...DOCUMENT_TYPES])
  document_type?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  issuing_authority?: string;

  @ApiPropertyOptional({ example: '2031-01-01' })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'expiration_date must be YYYY-MM-DD' })
  expiration_date?: string;
}

export class SeedDocumentDto {
  @ApiProperty({ example: 'co' })
  @Matches(/^[a-z]{2}$/, { message: 'country must be a lowercase ISO 3166-1 alpha-2 code' })
  country!: string;

  @ApiProperty({ enum: DOCUMENT_TYPES })
  @IsIn([...DOCUMENT_TYPES])
  document_type!: string;

  @ApiProperty()
  @IsString()
  @MaxLength(40)
  document_number!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'expiration_date must be YYYY-MM-DD' })
  expiration_date?: string;
}

export class SeedAddressDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  street_address?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  locality?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  region?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(20)
  postal_code?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(/^[A-Z]{2}$/)
  country?: string;
}

export class SeedBiometricDto {
  @ApiProperty()
  @IsBoolean()
  face_enrolled!: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  liveness_check_passed?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  face_match_confidence?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsISO8601()
  last_face_verification_date?: string;
}

/**
 * PUT /v1/admin/users (platform operator): creates or replaces a person's verified data. Stands in for the
 * identity and validations events until those services publish them (the stack seeds its demo user here).
 */
export class SeedUserDto {
  @ApiProperty({ example: 'demo.user@pass.local' })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @ApiPropertyOptional({ description: 'E.164', example: '+573001234567' })
  @IsOptional()
  @Matches(/^\+[1-9]\d{6,14}$/, { message: 'phone_number must be E.164 (+ and 7 to 15 digits)' })
  phone_number?: string;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  phone_verified?: boolean;

  @ApiPropertyOptional({ type: SeedIdentityDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => SeedIdentityDto)
  identity?: SeedIdentityDto;

  @ApiPropertyOptional({ type: [SeedDocumentDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => SeedDocumentDto)
  documents?: SeedDocumentDto[];

  @ApiPropertyOptional({ type: SeedAddressDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => SeedAddressDto)
  address?: SeedAddressDto;

  @ApiPropertyOptional({ type: SeedBiometricDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => SeedBiometricDto)
  biometric?: SeedBiometricDto;
}
