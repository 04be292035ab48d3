import { ToBoolean } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional } from 'class-validator';

import { ON_REQUEST_COUNTRIES, ON_REQUEST_DOCUMENT_TYPES } from '../on-request';

/** PUT /v1/admin/tenants/{tenant_id}/validation-features (platform operators). */
export class UpdateFeaturesDto {
  @ApiPropertyOptional({
    description:
      'Authorize enrollments with confirmation=none; only API keys issued after this authorization may use it',
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'confirmation_none must be true or false' })
  confirmation_none?: boolean;

  @ApiPropertyOptional({ description: 'Activate use_manual_review for face-recognition' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'face_manual_review must be true or false' })
  face_manual_review?: boolean;

  @ApiPropertyOptional({
    description: 'The "on request" document-validation countries enabled for the tenant (replaces the list)',
    enum: ON_REQUEST_COUNTRIES,
    isArray: true,
  })
  @IsOptional()
  @IsArray({ message: 'on_request_countries must be an array' })
  @ArrayMaxSize(ON_REQUEST_COUNTRIES.length, { message: 'on_request_countries has too many items' })
  @IsIn(ON_REQUEST_COUNTRIES, {
    each: true,
    message: `on_request_countries items must be ${ON_REQUEST_COUNTRIES.join(', ')}`,
  })
  on_request_countries?: string[];

  @ApiPropertyOptional({
    description: 'The "on request" document types enabled for the tenant (replaces the list)',
    enum: ON_REQUEST_DOCUMENT_TYPES,
    isArray: true,
  })
  @IsOptional()
  @IsArray({ message: 'on_request_document_types must be an array' })
  @ArrayMaxSize(ON_REQUEST_DOCUMENT_TYPES.length, { message: 'on_request_document_types has too many items' })
  @IsIn(ON_REQUEST_DOCUMENT_TYPES, {
    each: true,
    message: `on_request_document_types items must be ${ON_REQUEST_DOCUMENT_TYPES.join(', ')}`,
  })
  on_request_document_types?: string[];
}
