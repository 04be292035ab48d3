import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** What platform operators enabled for a tenant in the validators suite. */
export class FeaturesResponse {
  @ApiProperty() tenant_id!: string;
  @ApiProperty({ description: 'Enrollments with confirmation=none (keys issued after the authorization)' })
  confirmation_none!: boolean;
  @ApiPropertyOptional({ format: 'date-time' }) confirmation_none_authorized_at?: string;
  @ApiProperty({ description: 'use_manual_review for face-recognition' }) face_manual_review!: boolean;
  @ApiProperty({ type: [String], enum: ['BR', 'CR'], isArray: true }) on_request_countries!: string[];
  @ApiProperty({ type: [String], enum: ['ppt'], isArray: true }) on_request_document_types!: string[];
}

export const FEATURES_EXAMPLE = {
  tenant_id: 'acme',
  confirmation_none: true,
  confirmation_none_authorized_at: '2026-11-25T09:00:00.000Z',
  face_manual_review: false,
  on_request_countries: ['BR'],
  on_request_document_types: [],
};
