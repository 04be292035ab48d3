import { ApiProperty } from '@nestjs/swagger';

const SCORE_CONFIGS = {
  type: 'object',
  description: 'country → type name → [{data_set, weight}] (public ScoreConfig)',
  additionalProperties: {
    type: 'object',
    additionalProperties: {
      type: 'array',
      items: { type: 'object', properties: { data_set: { type: 'string' }, weight: { type: 'number' } } },
    },
  },
} as const;

export class CustomTypeResponse {
  @ApiProperty({ description: 'The tenant' }) client_id!: string;
  @ApiProperty() config_id!: string;
  @ApiProperty({ example: 'CO' }) country!: string;
  @ApiProperty({ example: 'my-type' }) type!: string;
  @ApiProperty(SCORE_CONFIGS) score_configs!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

class ScoreConfigResponse {
  @ApiProperty({ example: 'criminal_record' }) data_set!: string;
  @ApiProperty({ example: '0.6', description: 'The weight as decimal text (published ScoreConfig)' }) weight!: string;
}

/** One custom type in GET /v1/config (published ScoreConfigOutput). */
class ScoreConfigOutputResponse {
  @ApiProperty() config_id!: string;
  @ApiProperty({ example: 'CO' }) country!: string;
  @ApiProperty({ example: 'my-type' }) type!: string;
  @ApiProperty({ type: [ScoreConfigResponse] }) ScoreConfigByCountry!: ScoreConfigResponse[];
}

export class CustomTypesPageResponse {
  @ApiProperty({
    type: [ScoreConfigOutputResponse],
    description: 'The custom types of the page (published ScoreConfigOutput)',
  })
  score_configs!: ScoreConfigOutputResponse[];
  @ApiProperty() self!: string;
  @ApiProperty({ required: false, description: 'The next page; absent on the last page' }) next?: string;
}

export class CustomTypesRemainingResponse {
  @ApiProperty({ ...SCORE_CONFIGS, description: 'The remaining types of the country' })
  score_configs!: Record<string, unknown>;
}

const weights = [
  { data_set: 'criminal_record', weight: 0.6 },
  { data_set: 'personal_identity', weight: 0.4 },
];

export const CUSTOM_TYPE_EXAMPLE = {
  client_id: 'demo',
  config_id: 'CTY019ab9f2c4e0a1b2c3d4e5',
  country: 'CO',
  type: 'my-type',
  score_configs: { CO: { 'my-type': weights } },
  creation_date: '2026-11-25T06:00:00.000Z',
  update_date: '2026-11-25T06:00:00.000Z',
};

export const CUSTOM_TYPE_LIST_EXAMPLE = [
  {
    config_id: CUSTOM_TYPE_EXAMPLE.config_id,
    country: 'CO',
    type: 'my-type',
    ScoreConfigByCountry: weights.map((w) => ({ data_set: w.data_set, weight: String(w.weight) })),
  },
];
