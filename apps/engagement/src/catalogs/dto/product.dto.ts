import { Trim } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsNumber, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min } from 'class-validator';

import { AVAILABILITIES, CONDITIONS } from '../catalog-product.entity';

/** Retailer ids: the tenant's own product codes (letters, digits, `_`, `.`, `-`, up to 100). */
export const RETAILER_ID_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/;
const RETAILER_ID_MESSAGE = 'retailer_id must be 1 to 100 letters, digits, _, . or -';
export const MAX_PRICE = 10_000_000_000;

/** A product of POST .../products (every field but brand, description, image_url and url required). */
export class NewProductDto {
  @ApiProperty({ example: 'SKU-1001' })
  @IsString()
  @Matches(RETAILER_ID_PATTERN, { message: RETAILER_ID_MESSAGE })
  retailer_id!: string;

  @ApiProperty({ example: 'Camiseta azul', maxLength: 150 })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(150)
  name!: string;

  @ApiPropertyOptional({ example: 'Algodón, talla M', maxLength: 5000 })
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string;

  @ApiProperty({ example: 59900.5, description: 'In currency units, at most 2 decimals, 0 or more' })
  @IsNumber(
    { maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false },
    { message: 'price must be a number with at most 2 decimals' },
  )
  @Min(0)
  @Max(MAX_PRICE)
  price!: number;

  @ApiProperty({ example: 'COP', description: 'ISO 4217 code, uppercase' })
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code of 3 uppercase letters' })
  currency!: string;

  @ApiProperty({ enum: AVAILABILITIES, example: 'in stock' })
  @IsIn(AVAILABILITIES, { message: `availability must be one of ${AVAILABILITIES.join(', ')}` })
  availability!: string;

  @ApiPropertyOptional({ example: 'Acme', maxLength: 100 })
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  brand?: string;

  @ApiProperty({ enum: CONDITIONS, example: 'new' })
  @IsIn(CONDITIONS, { message: `condition must be one of ${CONDITIONS.join(', ')}` })
  condition!: string;

  @ApiPropertyOptional({ example: 'https://shop.example.com/img/sku-1001.jpg' })
  @IsOptional()
  @IsUrl({ protocols: ['https'], require_protocol: true }, { message: 'image_url must be an https URL' })
  @MaxLength(2048)
  image_url?: string;

  @ApiPropertyOptional({ example: 'https://shop.example.com/p/sku-1001' })
  @IsOptional()
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true }, { message: 'url must be an http(s) URL' })
  @MaxLength(2048)
  url?: string;
}

/** A product of PUT .../products: its retailer id and the fields to change (at least one). */
export class ProductChangeDto {
  @ApiProperty({ example: 'SKU-1001' })
  @IsString()
  @Matches(RETAILER_ID_PATTERN, { message: RETAILER_ID_MESSAGE })
  retailer_id!: string;

  @ApiPropertyOptional({ example: 'Camiseta azul oscuro', maxLength: 150 })
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(150)
  name?: string;

  @ApiPropertyOptional({ maxLength: 5000 })
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string;

  @ApiPropertyOptional({ example: 49900 })
  @IsOptional()
  @IsNumber(
    { maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false },
    { message: 'price must be a number with at most 2 decimals' },
  )
  @Min(0)
  @Max(MAX_PRICE)
  price?: number;

  @ApiPropertyOptional({ example: 'COP' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code of 3 uppercase letters' })
  currency?: string;

  @ApiPropertyOptional({ enum: AVAILABILITIES, example: 'out of stock' })
  @IsOptional()
  @IsIn(AVAILABILITIES, { message: `availability must be one of ${AVAILABILITIES.join(', ')}` })
  availability?: string;

  @ApiPropertyOptional({ example: 'Acme' })
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  brand?: string;

  @ApiPropertyOptional({ enum: CONDITIONS, example: 'used' })
  @IsOptional()
  @IsIn(CONDITIONS, { message: `condition must be one of ${CONDITIONS.join(', ')}` })
  condition?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsUrl({ protocols: ['https'], require_protocol: true }, { message: 'image_url must be an https URL' })
  @MaxLength(2048)
  image_url?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true }, { message: 'url must be an http(s) URL' })
  @MaxLength(2048)
  url?: string;
}
