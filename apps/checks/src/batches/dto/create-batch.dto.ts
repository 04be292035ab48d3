import { CHECK_COUNTRIES, CheckCountry } from '@kyc/contracts';
import { Trim } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

export const BATCH_SERVICES = ['checks'] as const;

/**
 * POST /v1/batches (form-encoded or JSON). `columns_mapping.<input>=<index>` fields are read from
 * the raw body by the service (their names are dynamic).
 */
export class CreateBatchDto {
  @ApiProperty({ enum: CHECK_COUNTRIES })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsIn(CHECK_COUNTRIES, { message: `country must be one of ${CHECK_COUNTRIES.join(', ')}` })
  country!: CheckCountry;

  @ApiProperty({ enum: BATCH_SERVICES })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsIn(BATCH_SERVICES, { message: 'service must be checks' })
  service!: string;

  @ApiProperty({ description: 'person, vehicle, company or the name of a custom type of this country' })
  @Trim()
  @IsString({ message: 'type is required' })
  @IsNotEmpty({ message: 'type is required' })
  @MaxLength(64, { message: 'type must be at most 64 characters' })
  type!: string;

  @ApiPropertyOptional({
    example: '2027-01-31',
    description: 'Continuous batch (with frequency): last day the checks repeat; must allow one run',
  })
  @IsOptional()
  @IsString({ message: 'end_date must be a date YYYY-MM-DD' })
  end_date?: string;

  @ApiPropertyOptional({
    description: 'Continuous batch (with end_date): daily, weekly, monthly, yearly or <n>d|w|m|y',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsString({ message: 'frequency must be daily, weekly, monthly, yearly or <n>d|w|m|y' })
  frequency?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'integer', minimum: 0 },
    description:
      'columns_mapping.<input_name> = zero-based column index (0 is column A); default: every input of the type in the documented order',
  })
  columns_mapping?: Record<string, number>;
}
