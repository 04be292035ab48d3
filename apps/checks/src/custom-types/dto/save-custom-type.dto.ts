import { CUSTOM_TYPE_COUNTRIES, CustomTypeCountry, DATA_SETS, DataSet } from '@kyc/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsNumber, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

/** A weight arrives as a form string: "0.25" -> 0.25; anything else stays for the validators to report. */
const toWeight = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;

function Weight(): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    Transform(toWeight)(target, key);
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: `${String(key)} must be a number from 0 to 1` })(
      target,
      key,
    );
    Min(0, { message: `${String(key)} must be a number from 0 to 1` })(target, key);
    Max(1, { message: `${String(key)} must be a number from 0 to 1` })(target, key);
  };
}

/** The weight field of each dataset (`dataset_<data_set>`). */
export const WEIGHT_FIELDS = DATA_SETS.map((d) => `dataset_${d}` as const);
export type WeightField = (typeof WEIGHT_FIELDS)[number];

/** POST and PUT /v1/config (form-encoded): country, type and one weight per dataset consulted. */
export class SaveCustomTypeDto {
  @ApiProperty({
    enum: CUSTOM_TYPE_COUNTRIES,
    description: 'ALL for types that search by name in international databases',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsIn(CUSTOM_TYPE_COUNTRIES, { message: `country must be one of ${CUSTOM_TYPE_COUNTRIES.join(', ')}` })
  country!: CustomTypeCountry;

  @ApiProperty({ description: 'Custom type name; cannot be person, vehicle or company' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'type must be a string' })
  @IsNotEmpty({ message: 'type is required' })
  @Matches(/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/, {
    message: 'type must be 1 to 64 letters, digits, spaces, dots, dashes or underscores',
  })
  type!: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Weight of affiliation and insurance' })
  @IsOptional()
  @Weight()
  dataset_affiliations_and_insurances?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Weight of alert in media' })
  @IsOptional()
  @Weight()
  dataset_alert_in_media?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Weight of business background' })
  @IsOptional()
  @Weight()
  dataset_business_background?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Weight of criminal record' })
  @IsOptional()
  @Weight()
  dataset_criminal_record?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Weight of driving license' })
  @IsOptional()
  @Weight()
  dataset_driving_licenses?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Weight of international background' })
  @IsOptional()
  @Weight()
  dataset_international_background?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Weight of legal background' })
  @IsOptional()
  @Weight()
  dataset_legal_background?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Weight of personal identity' })
  @IsOptional()
  @Weight()
  dataset_personal_identity?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Weight of professional background' })
  @IsOptional()
  @Weight()
  dataset_professional_background?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Weight of taxes and financial background' })
  @IsOptional()
  @Weight()
  dataset_taxes_and_finances?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Weight of traffic fines' })
  @IsOptional()
  @Weight()
  dataset_traffic_fines?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Weight of vehicle information' })
  @IsOptional()
  @Weight()
  dataset_vehicle_information?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Weight of vehicle certificate background' })
  @IsOptional()
  @Weight()
  dataset_vehicle_permits?: number;
}

/** The weights given, by dataset (a dataset without a weight is not consulted). */
export function weightsOf(dto: SaveCustomTypeDto): Partial<Record<DataSet, number>> {
  const out: Partial<Record<DataSet, number>> = {};
  for (const d of DATA_SETS) {
    const w = dto[`dataset_${d}`];
    if (typeof w === 'number') out[d] = w;
  }
  return out;
}
