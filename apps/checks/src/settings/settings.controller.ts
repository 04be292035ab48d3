import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller } from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { SETTINGS_EXAMPLE, SettingsResponse } from './dto/settings.response';
import { UpdateSettingsDto } from './dto/update-settings.dto';
import { SettingsService } from './settings.service';

@ApiTags('settings')
@BackendKeys()
@Controller('v1/settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Post()
  @ApiSuccess({ type: SettingsResponse, example: { ...SETTINGS_EXAMPLE, update_date: '2026-11-25T06:00:00.000Z' } })
  @ApiEnvelopeErrors(400, 413)
  @HttpCode(200)
  update(@CurrentCaller() caller: Caller, @Body() dto: UpdateSettingsDto) {
    return this.settings.update(caller, dto);
  }

  @Get()
  @ApiSuccess({ type: SettingsResponse, example: SETTINGS_EXAMPLE })
  get(@CurrentCaller() caller: Caller) {
    return this.settings.get(caller);
  }
}
