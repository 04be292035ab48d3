import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A validation account (one end user of the tenant across validators). */
export class AccountResponse {
  @ApiProperty({ example: 'user-123', pattern: '^[a-zA-Z0-9_.-]+$' }) account_id!: string;
  @ApiPropertyOptional() email?: string;
  @ApiPropertyOptional() first_name?: string;
  @ApiPropertyOptional() last_name?: string;
  @ApiPropertyOptional({ description: 'With country code' }) phone_number?: string;
  @ApiPropertyOptional({ description: 'ISO 3166 alpha-2' }) country?: string;
  @ApiPropertyOptional() document_number?: string;
  @ApiPropertyOptional({ enum: ['national-id', 'identity-card', 'foreign-id', 'passport'] }) document_type?: string;
  @ApiPropertyOptional({ format: 'date' }) document_issue_date?: string;
  @ApiPropertyOptional() facebook_user?: string;
  @ApiPropertyOptional() twitter_user?: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

export const ACCOUNT_EXAMPLE = {
  account_id: 'user-123',
  email: 'ana@example.com',
  first_name: 'Ana',
  last_name: 'Perez',
  phone_number: '+573001234567',
  country: 'CO',
  document_number: '1020304050',
  document_type: 'national-id',
  document_issue_date: '2015-06-30',
  facebook_user: 'ana.perez',
  twitter_user: 'ana_perez',
  creation_date: '2026-11-25T09:00:00.000Z',
  update_date: '2026-11-25T09:00:00.000Z',
};
