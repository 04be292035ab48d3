import { Caller, CurrentCaller } from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { UpdateSettingsDto } from './dto/update-settings.dto';
import { SettingsService } from './settings.service';

@ApiTags('settings')
@Controller('v1/settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Post()
  @HttpCode(200)
  update(@CurrentCaller() caller: Caller, @Body() dto: UpdateSettingsDto) {
    return this.settings.update(caller, dto);
  }

  @Get()
  get(@CurrentCaller() caller: Caller) {
    return this.settings.get(caller);
  }
}
