import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { API_KEY_COUNTRIES, API_KEY_DOCUMENT_TYPES, API_KEY_GRANTS } from './issue-api-key.dto';

export class ApiKeyResponse {
  @ApiProperty({ example: 'KEY019ab9f2c4e0a1b2c3d4e5' }) key_id!: string;
  @ApiPropertyOptional({
    example: 'backend-prod',
    nullable: true,
    type: String,
    description: 'Backend keys have a name; web and sdk keys may not',
  })
  key_name?: string | null;
  @ApiProperty({ enum: ['backend', 'web', 'sdk'] }) key_type!: string;
  @ApiProperty({ enum: [0, 1] }) api_key_version!: number;
  @ApiProperty() user_id!: string;
  // What a web or sdk key was issued for (present only when set).
  @ApiPropertyOptional({ enum: API_KEY_GRANTS }) grant?: string;
  @ApiPropertyOptional() flow_id?: string;
  @ApiPropertyOptional({ enum: API_KEY_COUNTRIES }) country?: string;
  @ApiPropertyOptional({ enum: API_KEY_DOCUMENT_TYPES }) document_type?: string;
  @ApiPropertyOptional({ format: 'uri' }) redirect_url?: string;
  @ApiPropertyOptional() account_id?: string;
  @ApiPropertyOptional({ type: [String] }) emails?: string[];
  @ApiPropertyOptional({ type: [String] }) phone?: string[];
  @ApiPropertyOptional() billing_hub?: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiPropertyOptional({ format: 'date-time' }) expiration_date?: string;
  @ApiPropertyOptional({ format: 'date-time' }) revocation_date?: string;
}

/** The key is shown once, at creation. */
export class IssuedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({ description: 'The key to send as Service-API-Key (a signed JWT); shown only now' }) api_key!: string;
  @ApiProperty({ example: 'API key created' }) message!: string;
}

export const API_KEY_EXAMPLE = {
  key_id: 'KEY019ab9f2c4e0a1b2c3d4e5',
  key_name: 'backend-prod',
  key_type: 'backend',
  api_key_version: 1,
  user_id: 'USR019ab9f2c4e0a1b2c3d4e5',
  creation_date: '2026-11-25T06:00:00.000Z',
};

export const ISSUED_API_KEY_EXAMPLE = {
  api_key: 'eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJqdGkiOiJLRVkwMTlhYjlmMmM0ZTBhMWIyYzNkNGU1Ii…',
  message: 'API key created',
  ...API_KEY_EXAMPLE,
};
