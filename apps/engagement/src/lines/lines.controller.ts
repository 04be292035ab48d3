import { Caller, CurrentCaller } from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { CredentialsService } from '../credentials/credentials.service';
import { SaveProviderCredentialsDto } from '../credentials/save-provider-credentials.dto';
import { LineConfigDto } from './dto/line-config.dto';
import { UpdateLineDto } from './dto/update-line.dto';
import { presentLine } from './line.presenter';
import { LinesService } from './lines.service';

/** Business lines, business accounts (WABAs), the provider credentials and the WABA subscription. */
@ApiTags('messaging lines')
@Controller('v1/msg')
export class LinesController {
  constructor(
    private readonly lines: LinesService,
    private readonly credentials: CredentialsService,
  ) {}

  @Put('provider-credentials')
  async saveCredentials(@CurrentCaller() caller: Caller, @Body() dto: SaveProviderCredentialsDto) {
    const row = await this.credentials.save(caller, dto);
    return { provider: 'whatsapp', waba_id: row.wabaId, update_date: row.updatedAt.toISOString() };
  }

  @Post('waba-subscription')
  @HttpCode(200)
  async subscribe(@CurrentCaller() caller: Caller) {
    const { wabaId, lines } = await this.lines.subscribe(caller);
    return { waba_id: wabaId, subscribed: true, lines: lines.map(presentLine) };
  }

  @Get('wabas')
  wabas(@CurrentCaller() caller: Caller) {
    return this.lines.wabas(caller);
  }

  @Get('lines')
  async list(@CurrentCaller() caller: Caller) {
    return (await this.lines.list(caller)).map(presentLine);
  }

  @Get('lines/:waba_line')
  async get(@CurrentCaller() caller: Caller, @Param('waba_line') line: string) {
    return presentLine(await this.lines.get(caller.tenantId, line));
  }

  @Patch('lines/:waba_line')
  async update(@CurrentCaller() caller: Caller, @Param('waba_line') line: string, @Body() dto: UpdateLineDto) {
    return presentLine(await this.lines.update(caller, line, dto));
  }

  @Put('lines/:waba_line/config')
  async configure(@CurrentCaller() caller: Caller, @Param('waba_line') line: string, @Body() dto: LineConfigDto) {
    return presentLine(await this.lines.configure(caller, line, dto));
  }
}
