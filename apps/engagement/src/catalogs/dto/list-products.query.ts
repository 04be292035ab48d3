import { Trim } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidationArguments,
} from 'class-validator';

import { AVAILABILITIES, CONDITIONS, SYNC_STATUSES } from '../catalog-product.entity';
import { MAX_PRICE, RETAILER_ID_PATTERN } from './product.dto';

/** `a,b` or a repeated parameter (`?x=a&x=b`) → `['a', 'b']` (trimmed). */
const CommaList = () =>
  Transform(({ value }: { value: unknown }) =>
    value === undefined
      ? undefined
      : (Array.isArray(value) ? (value as unknown[]) : [value]).flatMap((v): unknown[] =>
          typeof v === 'string' ? v.split(',').map((s) => s.trim()) : [v],
        ),
  );

/** max_price, when both are given, is not below min_price. */
function NotBelow(other: string): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'notBelow',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [other],
      options: { message: `${String(propertyName)} must not be below ${other}` },
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          const low = (args.object as Record<string, unknown>)[other];
          return typeof value !== 'number' || typeof low !== 'number' || value >= low;
        },
      },
    });
}

/** GET /v1/engagement/catalogs/{catalog_id}/products: filters, page size and the opaque start_key. */
export class ListProductsQuery {
  @ApiPropertyOptional({ enum: AVAILABILITIES })
  @IsOptional()
  @IsIn(AVAILABILITIES, { message: `availability must be one of ${AVAILABILITIES.join(', ')}` })
  availability?: string;

  @ApiPropertyOptional({ description: 'Exact brand (case-insensitive)' })
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  brand?: string;

  @ApiPropertyOptional({ enum: CONDITIONS })
  @IsOptional()
  @IsIn(CONDITIONS, { message: `condition must be one of ${CONDITIONS.join(', ')}` })
  condition?: string;

  @ApiPropertyOptional({ description: 'Lowest price (inclusive)' })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'min_price must be a number' })
  @Min(0)
  @Max(MAX_PRICE)
  min_price?: number;

  @ApiPropertyOptional({ description: 'Highest price (inclusive), not below min_price' })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'max_price must be a number' })
  @Min(0)
  @Max(MAX_PRICE)
  @NotBelow('min_price')
  max_price?: number;

  @ApiPropertyOptional({ description: 'Retailer ids, comma-separated (up to 100)', example: 'SKU-1,SKU-2' })
  @IsOptional()
  @CommaList()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @Matches(RETAILER_ID_PATTERN, { each: true, message: 'each retailer id must be 1 to 100 letters, digits, _, . or -' })
  retailer_ids?: string[];

  @ApiPropertyOptional({ description: 'Substring of the name or the retailer id (case-insensitive)' })
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({ description: `Sync statuses, comma-separated (${SYNC_STATUSES.join(', ')})` })
  @IsOptional()
  @CommaList()
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(SYNC_STATUSES, { each: true, message: `each sync status must be one of ${SYNC_STATUSES.join(', ')}` })
  sync_statuses?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page_size must be an integer from 1 to 100' })
  @Min(1, { message: 'page_size must be an integer from 1 to 100' })
  @Max(100, { message: 'page_size must be an integer from 1 to 100' })
  page_size?: number;

  @ApiPropertyOptional({ description: 'Opaque token from the `next` link of the previous page' })
  @IsOptional()
  @IsString()
  start_key?: string;
}

/** GET /v1/engagement/catalogs. */
export class ListCatalogsQuery {
  @ApiPropertyOptional({ description: 'Opaque token from the `next` link of the previous page' })
  @IsOptional()
  @IsString()
  start_key?: string;
}
