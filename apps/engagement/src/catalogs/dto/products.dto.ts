import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Matches, ValidateNested } from 'class-validator';

import { NewProductDto, ProductChangeDto, RETAILER_ID_PATTERN } from './product.dto';

/** Products per request (add, update, mark for deletion). */
export const MAX_PRODUCTS_PER_REQUEST = 1_000;

/** POST .../products. */
export class AddProductsDto {
  @ApiProperty({ type: [NewProductDto] })
  @IsArray()
  @ArrayMinSize(1, { message: 'products must contain at least one product' })
  @ArrayMaxSize(MAX_PRODUCTS_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => NewProductDto)
  products!: NewProductDto[];
}

/** PUT .../products. */
export class UpdateProductsDto {
  @ApiProperty({ type: [ProductChangeDto] })
  @IsArray()
  @ArrayMinSize(1, { message: 'products must contain at least one product' })
  @ArrayMaxSize(MAX_PRODUCTS_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => ProductChangeDto)
  products!: ProductChangeDto[];
}

/** PATCH .../products/mark-for-deletion. */
export class MarkForDeletionDto {
  @ApiProperty({ type: [String], example: ['SKU-1001'], minItems: 1 })
  @IsArray()
  @ArrayMinSize(1, { message: 'retailer_ids must contain at least one retailer id' })
  @ArrayMaxSize(MAX_PRODUCTS_PER_REQUEST)
  @IsString({ each: true })
  @Matches(RETAILER_ID_PATTERN, { each: true, message: 'each retailer id must be 1 to 100 letters, digits, _, . or -' })
  retailer_ids!: string[];
}
