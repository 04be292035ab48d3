import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const STATES = ['operational', 'degraded', 'down'];

class DatabaseStatusResponse {
  @ApiProperty({ enum: STATES }) status!: string;
  @ApiProperty() response_ms!: number;
}

class ManualReviewStatusResponse {
  @ApiProperty({ description: 'Whether the review team works now (VALIDATIONS_REVIEW_HOURS/DAYS)' })
  available!: boolean;
}

class ValidatorStatusResponse {
  @ApiProperty() name!: string;
  @ApiProperty({ enum: STATES }) status!: string;
  @ApiProperty() component!: string;
  @ApiProperty() finished_last_15_minutes!: number;
  @ApiProperty() system_errors_last_15_minutes!: number;
  @ApiProperty({ description: 'Age of the oldest engine job waiting' }) backlog_age_seconds!: number;
  @ApiPropertyOptional({ type: [String] }) reasons?: string[];
}

/** GET /v1/status: the validators' state from real state (database, job backlog, recent errors). */
export class StatusResponse {
  @ApiProperty({ enum: STATES }) status!: string;
  @ApiProperty({ format: 'date-time' }) checked_at!: string;
  @ApiProperty({ type: DatabaseStatusResponse }) database!: DatabaseStatusResponse;
  @ApiProperty({ type: ManualReviewStatusResponse }) manual_review!: ManualReviewStatusResponse;
  @ApiProperty({ type: [ValidatorStatusResponse] }) services!: ValidatorStatusResponse[];
}

const validator = (name: string, component: string) => ({
  name,
  status: 'operational',
  component,
  finished_last_15_minutes: 12,
  system_errors_last_15_minutes: 0,
  backlog_age_seconds: 0,
});

export const STATUS_EXAMPLE = {
  status: 'operational',
  checked_at: '2026-11-25T09:00:00.000Z',
  database: { status: 'operational', response_ms: 2 },
  manual_review: { available: true },
  services: [
    validator('document-validation', 'document engine (OCR, MRZ, ID numbers)'),
    validator('face-recognition', 'face engine (detection, descriptors, liveness)'),
    validator('face-search', 'face engine and blocklist'),
    validator('email-verification', 'SMTP'),
    validator('phone-verification', 'phone provider (sandbox)'),
  ],
};
