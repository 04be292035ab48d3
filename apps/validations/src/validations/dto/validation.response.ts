import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

class MediaLinkResponse {
  @ApiProperty({ enum: ['front', 'reverse', 'face_photo', 'video'] }) slot!: string;
  @ApiProperty({ type: String, nullable: true }) content_type!: string;
  @ApiProperty({ type: Number, nullable: true }) size!: number;
  @ApiProperty({ description: 'Signed link to the file, valid 15 minutes' }) url!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}

/** A validation (the same object on create, read, perform, restore and review decisions). */
export class ValidationResponse {
  @ApiProperty({ example: 'VLD019ab9f2c4e0a1b2c3d4e5f6a7' }) validation_id!: string;
  @ApiProperty() account_id!: string;
  @ApiProperty({
    enum: ['document-validation', 'face-recognition', 'email-verification', 'phone-verification', 'face-search'],
  })
  type!: string;
  @ApiProperty({ enum: ['pending', 'success', 'failure'] }) validation_status!: string;
  @ApiPropertyOptional({ enum: ['declined', 'expired', 'system_error'] }) failure_status?: string;
  @ApiPropertyOptional({ description: 'See the service page for the list' }) declined_reason?: string;
  @ApiPropertyOptional({ enum: ['media_not_uploaded', 'token_not_submitted', 'manual_review_not_finished'] })
  expired_reason?: string;
  @ApiPropertyOptional({ enum: ['invalid_media', 'engine_error', 'otp_delivery_failed'] }) failure_reason?: string;
  @ApiProperty({ enum: ['not_required', 'pending', 'approved', 'declined', 'unavailable'] })
  manual_review_status!: string;
  @ApiPropertyOptional({ description: 'The external identifier sent' }) custom_input?: string;
  @ApiPropertyOptional() country?: string;
  @ApiPropertyOptional() document_type?: string;
  @ApiPropertyOptional({ description: 'face-recognition' }) threshold?: number;
  @ApiPropertyOptional({ type: [String], description: 'face-recognition' }) subvalidations?: string[];
  @ApiProperty({ description: 'Seconds' }) timeout!: number;
  @ApiPropertyOptional() allowed_retries?: number;
  @ApiPropertyOptional({ description: 'OTP types: codes that may still be tried' }) attempts_left?: number;
  @ApiPropertyOptional() retry_of_id?: string;
  @ApiPropertyOptional({ description: 'The custom check type of the checks service it links' }) custom_type?: string;
  @ApiPropertyOptional() process_id?: string;
  @ApiPropertyOptional() flow_id?: string;
  @ApiPropertyOptional() ip_address?: string;
  @ApiProperty({ format: 'date-time' }) expiration_date!: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
  @ApiPropertyOptional({ format: 'date-time' }) finished_date?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      'While pending: signed upload links of the media still awaited (front_url, reverse_url, file_upload_link, video_upload_link), upload_expiration, speech_token',
  })
  instructions?: Record<string, string>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Once the engines ran: document_details, face_recognition_validations, subvalidations',
  })
  details?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'show_details=true: the inputs as sent',
  })
  inputs?: Record<string, unknown>;
  @ApiPropertyOptional({ type: [MediaLinkResponse], description: 'show_details=true: the uploaded media' })
  media?: MediaLinkResponse[];
}

export const VALIDATION_EXAMPLE = {
  validation_id: 'VLD019ab9f2c4e0a1b2c3d4e5f6a7',
  account_id: 'user-123',
  type: 'document-validation',
  validation_status: 'pending',
  manual_review_status: 'not_required',
  country: 'CO',
  document_type: 'national-id',
  timeout: 300,
  allowed_retries: 0,
  expiration_date: '2026-11-25T09:05:00.000Z',
  creation_date: '2026-11-25T09:00:00.000Z',
  update_date: '2026-11-25T09:00:00.000Z',
  instructions: {
    front_url:
      'https://validations.example.com/v1/uploads/MED019ab9f2c4e0a1b2c3d4e5f6a8?expires=1795600000&signature=3q2-7w',
    reverse_url:
      'https://validations.example.com/v1/uploads/MED019ab9f2c4e0a1b2c3d4e5f6a9?expires=1795600000&signature=9xk-2a',
    upload_expiration: '2026-11-25T09:05:00.000Z',
  },
};

export const FINISHED_VALIDATION_EXAMPLE = {
  validation_id: 'VLD019ab9f2c4e0a1b2c3d4e5f6b0',
  account_id: 'user-123',
  type: 'email-verification',
  validation_status: 'success',
  manual_review_status: 'not_required',
  timeout: 300,
  allowed_retries: 2,
  attempts_left: 3,
  expiration_date: '2026-11-25T09:05:00.000Z',
  creation_date: '2026-11-25T09:00:00.000Z',
  update_date: '2026-11-25T09:01:10.000Z',
  finished_date: '2026-11-25T09:01:10.000Z',
};

export class ValidationDeletedResponse {
  @ApiProperty() validation_id!: string;
  @ApiProperty({ enum: [true] }) deleted!: boolean;
}
