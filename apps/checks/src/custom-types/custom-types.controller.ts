import {
  ApiEnvelopeErrors,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  pageLinks,
  PlatformConfig,
} from '@kyc/platform';
import { Body, Controller, Delete, Get, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { CustomTypeEntity } from './custom-type.entity';
import { CustomTypesService, scoreConfigList, scoreConfigs } from './custom-types.service';
import {
  CUSTOM_TYPE_EXAMPLE,
  CUSTOM_TYPE_LIST_EXAMPLE,
  CustomTypeResponse,
  CustomTypesPageResponse,
  CustomTypesRemainingResponse,
} from './dto/custom-type.response';
import { DeleteCustomTypeQuery } from './dto/delete-custom-type.query';
import { ListCustomTypesQuery } from './dto/list-custom-types.query';
import { SaveCustomTypeDto } from './dto/save-custom-type.dto';

/** Custom check types (`/v1/config`), answered in the public ScoreConfig shape. */
@ApiTags('custom-types')
@BackendKeys()
@Controller('v1/config')
export class CustomTypesController {
  constructor(
    private readonly types: CustomTypesService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  @ApiSuccess({ status: 201, type: CustomTypeResponse, example: CUSTOM_TYPE_EXAMPLE })
  @ApiEnvelopeErrors(400, { 409: ['Custom type my-type already exists in CO', 'custom_type_exists'] }, 413)
  async create(@CurrentCaller() caller: Caller, @Body() dto: SaveCustomTypeDto) {
    return this.present(caller, await this.types.create(caller, dto));
  }

  @Put()
  @ApiSuccess({ type: CustomTypeResponse, example: CUSTOM_TYPE_EXAMPLE })
  @ApiEnvelopeErrors(400, { 404: ['Custom type my-type not found in CO', 'custom_type_not_found'] }, 413)
  async update(@CurrentCaller() caller: Caller, @Body() dto: SaveCustomTypeDto) {
    return this.present(caller, await this.types.update(caller, dto));
  }

  @Get()
  @ApiSuccess({
    type: CustomTypesPageResponse,
    description: 'A page of custom types (`next` when there is more)',
    example: { score_configs: CUSTOM_TYPE_LIST_EXAMPLE, self: '/v1/config' },
  })
  @ApiEnvelopeErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListCustomTypesQuery, @Req() req: FastifyRequest) {
    const page = await this.types.list(caller, query.start_key);
    return { score_configs: scoreConfigList(page.items), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Delete()
  @ApiSuccess({ type: CustomTypesRemainingResponse, example: { score_configs: { CO: {} } } })
  @ApiEnvelopeErrors(400, { 404: ['Custom type my-type not found in CO', 'custom_type_not_found'] })
  async remove(@CurrentCaller() caller: Caller, @Query() query: DeleteCustomTypeQuery) {
    const remaining = await this.types.remove(caller, query);
    return { score_configs: { [query.country]: scoreConfigs(remaining)[query.country] ?? {} } };
  }

  private present(caller: Caller, t: CustomTypeEntity) {
    return {
      client_id: caller.tenantId,
      config_id: t.id,
      country: t.country,
      type: t.type,
      score_configs: scoreConfigs([t]),
      creation_date: t.createdAt.toISOString(),
      update_date: t.updatedAt.toISOString(),
    };
  }
}
