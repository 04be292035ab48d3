import { ConfigurableValidator } from '@kyc/contracts';
import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller } from '@kyc/platform';
import { Body, Controller, Delete, Get, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { CONFIG_LIST_EXAMPLE, DOCUMENT_CONFIG_EXAMPLE, ValidatorConfigResponse } from './dto/config.response';
import { ResetConfigQuery, UpdateConfigDto } from './dto/update-config.dto';
import { presentConfig } from './validator-config.presenter';
import { ValidatorConfigService } from './validator-config.service';

@ApiTags('config')
@BackendKeys()
@Controller('v1/config')
export class ValidatorConfigController {
  constructor(private readonly configs: ValidatorConfigService) {}

  @Put()
  @ApiSuccess({ type: ValidatorConfigResponse, wrap: 'config', example: { config: DOCUMENT_CONFIG_EXAMPLE } })
  @ApiEnvelopeErrors(
    400,
    { 403: ['use_manual_review for face-recognition needs an activation', 'face_manual_review_not_activated'] },
    413,
  )
  async update(@CurrentCaller() caller: Caller, @Body() dto: UpdateConfigDto) {
    return { config: presentConfig(dto.validator, await this.configs.update(caller, dto)) };
  }

  @Get()
  @ApiSuccess({
    schema: { type: 'array', items: { $ref: '#/components/schemas/ValidatorConfigResponse' } },
    wrap: 'config',
    example: { config: CONFIG_LIST_EXAMPLE },
  })
  async all(@CurrentCaller() caller: Caller) {
    const all = await this.configs.all(caller);
    return {
      config: Object.entries(all).map(([v, s]) => presentConfig(v as ConfigurableValidator, s)),
    };
  }

  @Delete()
  @ApiSuccess({
    type: ValidatorConfigResponse,
    wrap: 'config',
    description: 'The validator after the reset (defaults restored)',
    example: { config: { ...DOCUMENT_CONFIG_EXAMPLE, document_config: [] } },
  })
  @ApiEnvelopeErrors(400)
  async reset(@CurrentCaller() caller: Caller, @Query() query: ResetConfigQuery) {
    return { config: presentConfig(query.validator, await this.configs.reset(caller, query)) };
  }
}
