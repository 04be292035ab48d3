import { ApiProperty } from '@nestjs/swagger';

export class SettingsResponse {
  @ApiProperty({ type: String, nullable: true, example: '3h', description: 'null: the per-country defaults apply' })
  max_duration!: string | null;

  @ApiProperty({ enum: ['soft', 'exact'] })
  names_matching_type!: string;

  @ApiProperty()
  retries!: boolean;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'The max_duration a new check of each country gets with these settings',
  })
  max_duration_by_country!: Record<string, string>;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  update_date!: string | null;
}

export const SETTINGS_EXAMPLE = {
  max_duration: null,
  names_matching_type: 'soft',
  retries: false,
  max_duration_by_country: { ALL: '48h', BR: '3h', CL: '48h', CO: '3h', CR: '72h', MX: '3h', PE: '3h' },
  update_date: null,
};
