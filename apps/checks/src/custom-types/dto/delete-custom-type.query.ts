import { CUSTOM_TYPE_COUNTRIES, CustomTypeCountry } from '@kyc/contracts';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsString } from 'class-validator';

/** DELETE /v1/config?country=&type= */
export class DeleteCustomTypeQuery {
  @ApiProperty({ enum: CUSTOM_TYPE_COUNTRIES })
  @IsIn(CUSTOM_TYPE_COUNTRIES, { message: `country must be one of ${CUSTOM_TYPE_COUNTRIES.join(', ')} (uppercase)` })
  country!: CustomTypeCountry;

  @ApiProperty()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'type is required' })
  @IsNotEmpty({ message: 'type is required' })
  type!: string;
}
