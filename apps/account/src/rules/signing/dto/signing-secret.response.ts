import { ApiProperty } from '@nestjs/swagger';

export class SigningSecretResponse {
  @ApiProperty() secret!: string;
  @ApiProperty({ example: 'HMAC-SHA256' }) algorithm!: string;
  @ApiProperty({ example: 'X-Signature' }) header!: string;
  @ApiProperty() format!: string;
  @ApiProperty({ example: 300 }) recommended_tolerance_seconds!: number;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) rotated_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) previous_secret_valid_until!: string | null;
}

export const SIGNING_SECRET_EXAMPLE = {
  secret: 'whsec_5d2f0c…',
  algorithm: 'HMAC-SHA256',
  header: 'X-Signature',
  format: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">[,v1=<signature with the previous secret>]',
  recommended_tolerance_seconds: 300,
  creation_date: '2026-11-25T06:00:00.000Z',
  rotated_at: null,
  previous_secret_valid_until: null,
};
