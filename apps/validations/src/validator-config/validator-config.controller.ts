import { ConfigurableValidator } from '@kyc/contracts';
import { Caller, CurrentCaller } from '@kyc/platform';
import { Body, Controller, Delete, Get, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { ResetConfigQuery, UpdateConfigDto } from './dto/update-config.dto';
import { presentConfig } from './validator-config.presenter';
import { ValidatorConfigService } from './validator-config.service';

@ApiTags('config')
@Controller('v1/config')
export class ValidatorConfigController {
  constructor(private readonly configs: ValidatorConfigService) {}

  @Put()
  async update(@CurrentCaller() caller: Caller, @Body() dto: UpdateConfigDto) {
    return { config: presentConfig(dto.validator, await this.configs.update(caller, dto)) };
  }

  @Get()
  async all(@CurrentCaller() caller: Caller) {
    const all = await this.configs.all(caller);
    return {
      config: Object.entries(all).map(([v, s]) => presentConfig(v as ConfigurableValidator, s)),
    };
  }

  @Delete()
  async reset(@CurrentCaller() caller: Caller, @Query() query: ResetConfigQuery) {
    return { config: presentConfig(query.validator, await this.configs.reset(caller, query)) };
  }
}
