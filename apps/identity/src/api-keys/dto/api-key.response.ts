import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ApiKeyResponse {
  @ApiProperty({ example: 'KEY019ab9f2c4e0a1b2c3d4e5' }) key_id: string;
  @ApiProperty({ example: 'backend-prod' }) key_name: string;
  @ApiProperty({ enum: ['backend', 'web', 'sdk'] }) key_type: string;
  @ApiProperty({ enum: [0, 1] }) api_key_version: number;
  @ApiProperty() user_id: string;
  @ApiProperty({ format: 'date-time' }) creation_date: string;
  @ApiPropertyOptional({ format: 'date-time' }) expiration_date?: string;
  @ApiPropertyOptional({ format: 'date-time' }) revocation_date?: string;
}

/** The key is shown once, at creation. */
export class IssuedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({ description: 'The key to send as Service-API-Key (a signed JWT); shown only now' }) api_key: string;
  @ApiProperty({ example: 'API key created' }) message: string;
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
