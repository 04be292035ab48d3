import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

import { DOCUMENT_TYPES } from '../../scopes/scopes';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export class ValidationDocumentDto {
  @ApiProperty()
  @IsString()
  @MaxLength(40)
  document_number!: string;

  @ApiProperty({ enum: DOCUMENT_TYPES })
  @IsIn([...DOCUMENT_TYPES])
  document_type!: string;

  @ApiPropertyOptional({ example: 'CO' })
  @IsOptional()
  @Matches(/^[A-Z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code' })
  country?: string;

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

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(DATE, { message: 'date_of_birth must be YYYY-MM-DD' })
  date_of_birth?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(DATE, { message: 'expiration_date must be YYYY-MM-DD' })
  expiration_date?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsUrl({ require_tld: false })
  front_image?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsUrl({ require_tld: false })
  reverse_image?: string;
}

export class ValidationFaceDto {
  @ApiProperty()
  @IsUrl({ require_tld: false })
  face_photo!: string;
}

export class ValidationItemDto {
  @ApiProperty({ enum: ['document', 'face'] })
  @IsIn(['document', 'face'])
  type!: 'document' | 'face';

  @ApiProperty()
  @IsString()
  @Matches(/\S/, { message: 'resource_id is required' })
  @MaxLength(200)
  resource_id!: string;

  @ApiProperty()
  @IsBoolean()
  verified!: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsUrl({ require_tld: false })
  resource_url?: string;

  @ApiPropertyOptional({ description: 'Makes the write idempotent' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  process_id?: string;

  @ApiPropertyOptional({ type: ValidationDocumentDto, description: 'Required when type is document' })
  @ValidateIf((o: ValidationItemDto) => o.type === 'document' || o.document !== undefined)
  @IsDefined({ message: 'document is required when type is document' })
  @ValidateNested()
  @Type(() => ValidationDocumentDto)
  document?: ValidationDocumentDto;

  @ApiPropertyOptional({ type: ValidationFaceDto, description: 'Required when type is face' })
  @ValidateIf((o: ValidationItemDto) => o.type === 'face' || o.face !== undefined)
  @IsDefined({ message: 'face is required when type is face' })
  @ValidateNested()
  @Type(() => ValidationFaceDto)
  face?: ValidationFaceDto;
}

/** POST /v1/oauth2/validations. */
export class WriteValidationsDto {
  @ApiProperty({ type: [ValidationItemDto], minItems: 1, maxItems: 100 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => ValidationItemDto)
  validations!: ValidationItemDto[];
}
