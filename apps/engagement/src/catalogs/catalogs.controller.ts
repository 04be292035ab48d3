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
import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { presentCatalog } from './catalog.presenter';
import { ApiCatalogIdParam, CatalogId } from './catalog-id.pipe';
import { CatalogPublisher } from './catalog-publisher.service';
import { CatalogsService } from './catalogs.service';
import { CATALOG_EXAMPLE, CatalogResponse } from './dto/catalog.response';
import { ListCatalogsQuery } from './dto/list-products.query';
import { CreateCatalogDto } from './dto/save-catalog.dto';
import { UpdateCatalogDto } from './dto/update-catalog.dto';
import { WabaDto } from './dto/waba.dto';

const NOT_FOUND = {
  404: ['catalog 5f0c3c1e-8a4b-4c59-9a53-0d6f7f1b2c3d not found', 'catalog_not_found'] as [string, string],
};
const PROVIDER = {
  409: ['no messaging provider account: PUT /v1/msg/provider-credentials first', 'provider_not_configured'] as [
    string,
    string,
  ],
  503: ['the messaging provider is unreachable', 'provider_unavailable'] as [string, string],
};
const PUBLISHED = {
  ...CATALOG_EXAMPLE,
  provider_catalog_id: '1765432198765432',
  published_at: '2026-11-25T10:05:00.000Z',
};

/** Product catalogs: CRUD, the linked business account, publishing to the provider. */
@ApiTags('catalogs')
@BackendKeys()
@Controller('v1/engagement/catalogs')
export class CatalogsController {
  constructor(
    private readonly catalogs: CatalogsService,
    private readonly publisher: CatalogPublisher,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  @ApiSuccess({ status: 201, type: CatalogResponse, example: { ...CATALOG_EXAMPLE, waba_id: null } })
  @ApiEnvelopeErrors(400, 413)
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateCatalogDto) {
    return presentCatalog(await this.catalogs.create(caller, dto));
  }

  @Get()
  @ApiPage({ items: 'catalogs', type: CatalogResponse, example: [CATALOG_EXAMPLE], self: '/v1/engagement/catalogs' })
  @ApiEnvelopeErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListCatalogsQuery, @Req() req: FastifyRequest) {
    const page = await this.catalogs.list(caller, query.start_key);
    return { catalogs: page.items.map(presentCatalog), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':catalog_id')
  @ApiCatalogIdParam()
  @ApiSuccess({ type: CatalogResponse, example: CATALOG_EXAMPLE })
  @ApiEnvelopeErrors(400, NOT_FOUND)
  async get(@CurrentCaller() caller: Caller, @CatalogId() id: string) {
    return presentCatalog(await this.catalogs.get(caller, id));
  }

  @Put(':catalog_id')
  @ApiCatalogIdParam()
  @ApiSuccess({ type: CatalogResponse, example: { ...CATALOG_EXAMPLE, catalog_name: 'Tienda Medellín' } })
  @ApiEnvelopeErrors(400, NOT_FOUND, 413)
  async update(@CurrentCaller() caller: Caller, @CatalogId() id: string, @Body() dto: UpdateCatalogDto) {
    return presentCatalog(await this.catalogs.update(caller, id, dto));
  }

  @Delete(':catalog_id')
  @ApiCatalogIdParam()
  @ApiSuccess({
    schema: { type: 'object', properties: { catalog_id: { type: 'string' }, deleted: { type: 'boolean' } } },
    example: { catalog_id: CATALOG_EXAMPLE.catalog_id, deleted: true },
    description: 'Deleted, with its products (and at the provider when it was published)',
  })
  @ApiEnvelopeErrors(400, NOT_FOUND, PROVIDER)
  async remove(@CurrentCaller() caller: Caller, @CatalogId() id: string) {
    await this.catalogs.remove(caller, id);
    return { catalog_id: id, deleted: true };
  }

  @Post(':catalog_id/link-waba')
  @ApiCatalogIdParam()
  @HttpCode(200)
  @ApiSuccess({ type: CatalogResponse, example: CATALOG_EXAMPLE })
  @ApiEnvelopeErrors(400, { 404: ["business account 1234 is not this account's", 'unknown_waba'] }, 413)
  async link(@CurrentCaller() caller: Caller, @CatalogId() id: string, @Body() dto: WabaDto) {
    return presentCatalog(await this.catalogs.linkWaba(caller, id, dto.waba_id));
  }

  @Patch(':catalog_id/unlink-catalog')
  @ApiCatalogIdParam()
  @ApiSuccess({ type: CatalogResponse, example: { ...CATALOG_EXAMPLE, waba_id: null } })
  @ApiEnvelopeErrors(400, NOT_FOUND, { 409: ['catalog is not linked to a business account', 'catalog_not_linked'] })
  async unlink(@CurrentCaller() caller: Caller, @CatalogId() id: string) {
    return presentCatalog(await this.catalogs.unlink(caller, id));
  }

  @Post(':catalog_id/publish')
  @ApiCatalogIdParam()
  @HttpCode(200)
  @ApiSuccess({
    schema: {
      type: 'object',
      properties: {
        catalog: { $ref: '#/components/schemas/CatalogResponse' },
        products: {
          type: 'object',
          properties: {
            created: { type: 'integer' },
            updated: { type: 'integer' },
            deleted: { type: 'integer' },
            failed: { type: 'integer' },
          },
        },
      },
    },
    example: { catalog: PUBLISHED, products: { created: 12, updated: 3, deleted: 1, failed: 0 } },
    description: "Published: the provider's catalog, connected to the WABA, has every product",
  })
  @ApiEnvelopeErrors(
    400,
    NOT_FOUND,
    { 409: ['link a business account first (link-waba)', 'catalog_not_linked'] },
    413,
    {
      503: PROVIDER[503],
    },
  )
  async publish(@CurrentCaller() caller: Caller, @CatalogId() id: string, @Body() dto: WabaDto) {
    const { catalog, ...products } = await this.publisher.publish(caller, id, dto.waba_id);
    return { catalog: presentCatalog(catalog), products };
  }
}
