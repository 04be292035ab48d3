import { Trim } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { PROVIDER_TYPES, VERTICALS } from './save-catalog.dto';

/** PUT /v1/engagement/catalogs/{catalog_id}: the fields to change (at least one). */
export class UpdateCatalogDto {
  @ApiPropertyOptional({ example: 'Tienda Medellín', maxLength: 200 })
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  catalog_name?: string;

  @ApiPropertyOptional({ enum: PROVIDER_TYPES, example: 'WHATSAPP' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z0-9_]+$/, { message: 'provider_type must be uppercase' })
  @IsIn(PROVIDER_TYPES, { message: `provider_type must be one of ${PROVIDER_TYPES.join(', ')}` })
  provider_type?: string;

  @ApiPropertyOptional({ enum: VERTICALS, example: 'commerce' })
  @IsOptional()
  @IsIn(VERTICALS, { message: 'vertical must be commerce' })
  vertical?: string;
}
