import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** An enrollment: what later validations of the account compare with. */
export class EnrollmentResponse {
  @ApiProperty({ example: 'ENR019ab9f2c4e0a1b2c3d4e5f6a7' }) enrollment_id!: string;
  @ApiProperty() account_id!: string;
  @ApiProperty({ enum: ['face-recognition', 'email-verification', 'phone-verification', 'face-search'] })
  type!: string;
  @ApiProperty({ description: 'The same as type' }) validation_type!: string;
  @ApiProperty({ enum: ['pending', 'success', 'failure'] }) status!: string;
  @ApiPropertyOptional({ description: 'Why it failed (e.g. face_not_detected)' }) reason?: string;
  @ApiPropertyOptional() country?: string;
  @ApiPropertyOptional() phone_number?: string;
  @ApiPropertyOptional({ enum: ['home', 'office', 'recover'] }) phone_type?: string;
  @ApiPropertyOptional() email?: string;
  @ApiPropertyOptional({ enum: ['none'] }) confirmation?: string;
  @ApiPropertyOptional({
    enum: ['manipulated_document', 'manipulated_photo', 'non_payment', 'criminal_records_in_company', 'fraudster'],
  })
  fraud_reason?: string;
  @ApiPropertyOptional({ description: 'Face types: whether the face of the photo was read' }) face_enrolled?: boolean;
  @ApiPropertyOptional({ description: 'The validation that confirmed it' }) validation_id?: string;
  @ApiPropertyOptional({ description: 'Face types, at creation: signed link to PUT the photo (Base64)' })
  file_upload_link?: string;
  @ApiPropertyOptional({ format: 'date-time' }) file_upload_expiration?: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
  @ApiPropertyOptional({ format: 'date-time' }) finished_date?: string;
}

export const ENROLLMENT_EXAMPLE = {
  enrollment_id: 'ENR019ab9f2c4e0a1b2c3d4e5f6a7',
  account_id: 'user-123',
  type: 'face-recognition',
  validation_type: 'face-recognition',
  status: 'pending',
  face_enrolled: false,
  file_upload_link:
    'https://validations.example.com/v1/uploads/MED019ab9f2c4e0a1b2c3d4e5f6a8?expires=1795600000&signature=3q2-7w',
  file_upload_expiration: '2026-11-25T09:05:00.000Z',
  creation_date: '2026-11-25T09:00:00.000Z',
  update_date: '2026-11-25T09:00:00.000Z',
};

export class EnrollmentDeletedResponse {
  @ApiProperty() enrollment_id!: string;
  @ApiProperty({ enum: [true] }) deleted!: boolean;
}

export class AccountEnrollmentsResponse {
  @ApiProperty({ type: [EnrollmentResponse] }) enrollments!: EnrollmentResponse[];
  @ApiProperty() self!: string;
}
