import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  pageLinks,
  PlatformConfig,
} from '@kyc/platform';
import { Body, Controller, Get, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { presentProduct } from './catalog.presenter';
import { ApiCatalogIdParam, CatalogId } from './catalog-id.pipe';
import { PRODUCT_EXAMPLE, ProductResponse } from './dto/catalog.response';
import { ListProductsQuery } from './dto/list-products.query';
import { AddProductsDto, MarkForDeletionDto, UpdateProductsDto } from './dto/products.dto';
import { ProductsService } from './products.service';

const NOT_FOUND = {
  404: ['catalog 5f0c3c1e-8a4b-4c59-9a53-0d6f7f1b2c3d not found', 'catalog_not_found'] as [string, string],
};
const PRODUCTS = {
  type: 'object',
  properties: { products: { type: 'array', items: { $ref: '#/components/schemas/ProductResponse' } } },
};

/** Products of a catalog, referenced by retailer id. */
@ApiTags('catalogs')
@BackendKeys()
@ApiCatalogIdParam()
@Controller('v1/engagement/catalogs/:catalog_id/products')
export class ProductsController {
  constructor(
    private readonly products: ProductsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  @ApiSuccess({
    status: 201,
    schema: PRODUCTS,
    example: { products: [PRODUCT_EXAMPLE] },
    description: 'Added (PENDING until published)',
  })
  @ApiEnvelopeErrors(
    400,
    NOT_FOUND,
    { 409: ['products already in the catalog: SKU-1001 (update them with PUT)', 'products_already_exist'] },
    413,
  )
  async add(@CurrentCaller() caller: Caller, @CatalogId() catalogId: string, @Body() dto: AddProductsDto) {
    return { products: (await this.products.add(caller, catalogId, dto.products)).map(presentProduct) };
  }

  @Put()
  @ApiSuccess({
    schema: PRODUCTS,
    example: { products: [{ ...PRODUCT_EXAMPLE, price: 49900, availability: 'out of stock' }] },
    description: 'Updated (PENDING until published)',
  })
  @ApiEnvelopeErrors(400, { 404: ['products not in the catalog: SKU-9', 'products_not_found'] }, 413)
  async update(@CurrentCaller() caller: Caller, @CatalogId() catalogId: string, @Body() dto: UpdateProductsDto) {
    return { products: (await this.products.update(caller, catalogId, dto.products)).map(presentProduct) };
  }

  @Get()
  @ApiPage({
    items: 'products',
    type: ProductResponse,
    example: [PRODUCT_EXAMPLE],
    self: '/v1/engagement/catalogs/5f0c3c1e-8a4b-4c59-9a53-0d6f7f1b2c3d/products?page_size=20',
  })
  @ApiEnvelopeErrors(400, NOT_FOUND)
  async list(
    @CurrentCaller() caller: Caller,
    @CatalogId() catalogId: string,
    @Query() query: ListProductsQuery,
    @Req() req: FastifyRequest,
  ) {
    const page = await this.products.list(caller, catalogId, query);
    return { products: page.items.map(presentProduct), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Patch('mark-for-deletion')
  @ApiSuccess({
    schema: PRODUCTS,
    example: { products: [{ ...PRODUCT_EXAMPLE, sync_status: 'MARKED_FOR_DELETION' }] },
    description: 'Marked: removed from the provider at the next publish',
  })
  @ApiEnvelopeErrors(400, { 404: ['products not in the catalog: SKU-9', 'products_not_found'] }, 413)
  async markForDeletion(
    @CurrentCaller() caller: Caller,
    @CatalogId() catalogId: string,
    @Body() dto: MarkForDeletionDto,
  ) {
    return { products: (await this.products.markForDeletion(caller, catalogId, dto.retailer_ids)).map(presentProduct) };
  }
}
