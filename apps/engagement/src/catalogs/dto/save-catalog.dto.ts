import { Trim } from '@kyc/platform';
import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

/** Providers a catalog can be published to (uppercase): the WhatsApp Business Platform's commerce catalogs. */
export const PROVIDER_TYPES = ['WHATSAPP'] as const;
export const VERTICALS = ['commerce'] as const;

/** POST /v1/engagement/catalogs: all three required. */
export class CreateCatalogDto {
  @ApiProperty({ example: 'Tienda Bogotá', maxLength: 200 })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  catalog_name!: string;

  @ApiProperty({ enum: PROVIDER_TYPES, example: 'WHATSAPP', description: 'A provider value in uppercase' })
  @IsString()
  @Matches(/^[A-Z0-9_]+$/, { message: 'provider_type must be uppercase' })
  @IsIn(PROVIDER_TYPES, { message: `provider_type must be one of ${PROVIDER_TYPES.join(', ')}` })
  provider_type!: string;

  @ApiProperty({ enum: VERTICALS, example: 'commerce' })
  @IsIn(VERTICALS, { message: 'vertical must be commerce' })
  vertical!: string;
}
