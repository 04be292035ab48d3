import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

class DocumentTypeSwitchesResponse {
  @ApiProperty() document_type!: string;
  @ApiProperty({ enum: ['enabled', 'disabled'] }) manipulation_detection!: string;
  @ApiProperty({ enum: ['enabled', 'disabled'] }) photo_of_photo_detection!: string;
  @ApiProperty({ enum: ['enabled', 'disabled'] }) photocopy_detection!: string;
  @ApiProperty({ enum: ['enabled', 'disabled'] }) data_consistency!: string;
  @ApiProperty({ enum: ['enabled', 'disabled'] }) government_database!: string;
}

class CountryDocumentConfigResponse {
  @ApiProperty() country!: string;
  @ApiProperty({
    oneOf: [
      { type: 'array', items: { type: 'string' } },
      { type: 'string', enum: ['all'] },
    ],
    description: 'The versions accepted, or all',
  })
  document_version!: string[] | 'all';
  @ApiProperty({ type: [DocumentTypeSwitchesResponse] }) document_types!: DocumentTypeSwitchesResponse[];
}

/** One validator's settings in force (the tenant's, defaults where unset). */
export class ValidatorConfigResponse {
  @ApiProperty({ enum: ['face-recognition', 'email-verification', 'phone-verification', 'document-validation'] })
  validator!: string;
  @ApiPropertyOptional() threshold?: number;
  @ApiProperty({ description: 'Seconds' }) timeout!: number;
  @ApiPropertyOptional() allowed_retries?: number;
  @ApiPropertyOptional() retry_ttl?: number;
  @ApiPropertyOptional({ enum: ['enabled', 'disabled'] }) use_manual_review?: string;
  @ApiPropertyOptional() include_face_search?: boolean;
  @ApiPropertyOptional() enrollment_timeout?: number;
  @ApiPropertyOptional({ type: [CountryDocumentConfigResponse] }) document_config?: CountryDocumentConfigResponse[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  document_config_defaults?: Record<string, string>;
  @ApiPropertyOptional() email_subject?: string;
  @ApiPropertyOptional() email_title?: string;
  @ApiPropertyOptional() email_text_1?: string;
  @ApiPropertyOptional() email_text_2?: string;
  @ApiPropertyOptional() support_email?: string;
  @ApiPropertyOptional() custom_name?: string;
}

const SWITCH_DEFAULTS = {
  manipulation_detection: 'enabled',
  photo_of_photo_detection: 'enabled',
  photocopy_detection: 'enabled',
  data_consistency: 'enabled',
  government_database: 'disabled',
};

export const DOCUMENT_CONFIG_EXAMPLE = {
  validator: 'document-validation',
  timeout: 300,
  allowed_retries: 0,
  retry_ttl: 300,
  use_manual_review: 'disabled',
  document_config: [
    {
      country: 'MX',
      document_version: ['mx_ine-d'],
      document_types: [{ document_type: 'national-id', ...SWITCH_DEFAULTS, photocopy_detection: 'disabled' }],
    },
  ],
  document_config_defaults: SWITCH_DEFAULTS,
};

export const CONFIG_LIST_EXAMPLE = [
  DOCUMENT_CONFIG_EXAMPLE,
  {
    validator: 'face-recognition',
    threshold: 0.65,
    timeout: 300,
    allowed_retries: 0,
    retry_ttl: 300,
    use_manual_review: 'disabled',
    include_face_search: false,
    enrollment_timeout: 300,
  },
  { validator: 'email-verification', timeout: 300, allowed_retries: 2 },
  { validator: 'phone-verification', timeout: 300, allowed_retries: 2, custom_name: 'KYC' },
];

class CatalogDocumentTypeResponse {
  @ApiProperty() document_type!: string;
  @ApiProperty({ type: [String] }) document_versions!: string[];
  @ApiProperty({ type: [String], enum: ['front', 'reverse'], isArray: true }) sides!: string[];
  @ApiProperty({ description: 'Available on request: enabled for a tenant by the platform operators' })
  on_request!: boolean;
}

class CatalogCountryResponse {
  @ApiProperty() country!: string;
  @ApiProperty({ type: [CatalogDocumentTypeResponse] }) document_types!: CatalogDocumentTypeResponse[];
}

export class DocumentSelectionResponse {
  @ApiProperty({ type: [CatalogCountryResponse] }) countries!: CatalogCountryResponse[];
}

export const DOCUMENT_SELECTION_EXAMPLE = {
  countries: [
    {
      country: 'CO',
      document_types: [
        {
          document_type: 'national-id',
          document_versions: ['co_national-id-2000', 'co_national-id-2020'],
          sides: ['front', 'reverse'],
          on_request: false,
        },
        { document_type: 'ppt', document_versions: ['co_ppt'], sides: ['front', 'reverse'], on_request: true },
      ],
    },
  ],
};

class InfographicSideResponse {
  @ApiProperty({ enum: ['front', 'reverse'] }) side!: string;
  @ApiProperty({ type: [String], description: 'What the side shows (photo, names, document_number, mrz, ...)' })
  shows!: string[];
}

class InfographicDocumentResponse {
  @ApiProperty() country!: string;
  @ApiProperty() document_type!: string;
  @ApiProperty({ type: [String] }) document_versions!: string[];
  @ApiProperty({ type: [InfographicSideResponse] }) sides!: InfographicSideResponse[];
  @ApiProperty({ type: [String] }) capture_tips!: string[];
}

export class DocumentInfographicResponse {
  @ApiProperty({ type: [InfographicDocumentResponse] }) documents!: InfographicDocumentResponse[];
}

export const DOCUMENT_INFOGRAPHIC_EXAMPLE = {
  documents: [
    {
      country: 'CO',
      document_type: 'national-id',
      document_versions: ['co_national-id-2000', 'co_national-id-2020'],
      sides: [
        { side: 'front', shows: ['photo', 'names', 'document_number'] },
        { side: 'reverse', shows: ['date_of_birth', 'expiration_date'] },
      ],
      capture_tips: [
        'Place the document on a dark, flat surface',
        'All four corners visible, no glare, no fingers over the data',
        'Photograph the original, not a screen or a photocopy',
      ],
    },
  ],
};
