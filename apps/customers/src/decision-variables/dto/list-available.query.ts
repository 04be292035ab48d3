import { CursorPageQuery, ToArray, ToBoolean } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

import { DV_CATEGORIES, DV_DATA_TYPES, DV_PRODUCTS } from '../decision-variable.catalog';

/** Filters of the catalog; multi-value filters repeat the key (`product=check&product=process`). */
export class ListAvailableVariablesQuery extends CursorPageQuery {
  @ApiPropertyOptional()
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'active must be true or false' })
  active?: boolean;

  @ApiPropertyOptional({ enum: DV_CATEGORIES, isArray: true })
  @IsOptional()
  @ToArray()
  @IsIn(DV_CATEGORIES, { each: true, message: `category must be one of ${DV_CATEGORIES.join(', ')}` })
  category?: string[];

  @ApiPropertyOptional({ isArray: true })
  @IsOptional()
  @ToArray()
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  id?: string[];

  @ApiPropertyOptional({ isArray: true, type: Number })
  @IsOptional()
  @ToArray()
  @Transform(({ value }) =>
    Array.isArray(value) ? (value as unknown[]).map((v) => (v === '' ? v : Number(v))) : (value as unknown),
  )
  @IsInt({ each: true, message: 'level must be an integer from 1 to 10' })
  @Min(1, { each: true, message: 'level must be an integer from 1 to 10' })
  @Max(10, { each: true, message: 'level must be an integer from 1 to 10' })
  level?: number[];

  @ApiPropertyOptional({ isArray: true })
  @IsOptional()
  @ToArray()
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  name?: string[];

  @ApiPropertyOptional({ enum: DV_PRODUCTS, isArray: true })
  @IsOptional()
  @ToArray()
  @IsIn(DV_PRODUCTS, { each: true, message: `product must be one of ${DV_PRODUCTS.join(', ')}` })
  product?: string[];

  @ApiPropertyOptional({ description: 'Text in the name or description' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ enum: DV_DATA_TYPES, isArray: true })
  @IsOptional()
  @ToArray()
  @IsIn(DV_DATA_TYPES, { each: true, message: `data_type must be one of ${DV_DATA_TYPES.join(', ')}` })
  data_type?: string[];
}
