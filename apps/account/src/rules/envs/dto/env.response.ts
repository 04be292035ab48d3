import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class EnvResponse {
  @ApiProperty({ example: 'API_TOKEN' }) name!: string;
  @ApiProperty() is_secret!: boolean;
  @ApiPropertyOptional({ description: 'Never returned for secrets' }) value?: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

export const ENV_EXAMPLE = {
  name: 'API_TOKEN',
  is_secret: true,
  creation_date: '2026-11-25T06:00:00.000Z',
  update_date: '2026-11-25T06:00:00.000Z',
};
