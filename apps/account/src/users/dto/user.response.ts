import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class UserResponse {
  @ApiProperty({ example: 'USR019ab9f2c4e0a1b2c3d4e5' }) user_id!: string;
  @ApiProperty({ example: 'ana@acme.co', description: 'The e-mail, lowercased' }) username!: string;
  @ApiProperty({ example: 'ana@acme.co' }) email!: string;
  @ApiProperty({ example: 'default_access' }) role!: string;
  @ApiProperty({ enum: ['enabled', 'disabled'] }) status!: string;
  @ApiPropertyOptional({ example: 'CO' }) country?: string;
  @ApiPropertyOptional({ example: '+573001234567' }) phone_number?: string;
  @ApiPropertyOptional({ enum: ['es', 'en', 'pt'] }) language?: string;
  @ApiPropertyOptional({ example: 'HUB-DEMO' }) billing_hub?: string;
  @ApiPropertyOptional() display_name?: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

export const USER_EXAMPLE = {
  user_id: 'USR019ab9f2c4e0a1b2c3d4e5',
  username: 'ana@acme.co',
  email: 'ana@acme.co',
  role: 'default_access',
  status: 'enabled',
  country: 'CO',
  language: 'es',
  billing_hub: 'HUB-DEMO',
  creation_date: '2026-11-25T06:00:00.000Z',
  update_date: '2026-11-25T06:00:00.000Z',
};

export const USER_SELF = '/v1/account/users/ana%40acme.co';
