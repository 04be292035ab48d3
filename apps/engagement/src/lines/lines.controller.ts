import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller } from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';

import { CredentialsService } from '../credentials/credentials.service';
import { SaveProviderCredentialsDto } from '../credentials/save-provider-credentials.dto';
import { LINE_EXAMPLE, LineResponse, WABA_EXAMPLE, WabaResponse } from './dto/line.response';
import { LineConfigDto } from './dto/line-config.dto';
import { UpdateLineDto } from './dto/update-line.dto';
import { presentLine } from './line.presenter';
import { LinesService } from './lines.service';

const LINE_NOT_FOUND = { 404: ['line +573000000001 not found', 'line_not_found'] as [string, string] };
const PROVIDER_MISSING = {
  409: ['no messaging provider account: PUT /v1/msg/provider-credentials first', 'provider_not_configured'] as [
    string,
    string,
  ],
};
const PROVIDER_DOWN = {
  409: ["the messaging provider refused the account's access token", 'provider_credentials_rejected'] as [
    string,
    string,
  ],
  503: ['the messaging provider is unreachable', 'provider_unavailable'] as [string, string],
};
/** Business lines, business accounts (WABAs), the provider credentials and the WABA subscription. */
@ApiTags('messaging lines')
@BackendKeys()
@Controller('v1/msg')
export class LinesController {
  constructor(
    private readonly lines: LinesService,
    private readonly credentials: CredentialsService,
  ) {}

  @Put('provider-credentials')
  @ApiSuccess({
    schema: {
      type: 'object',
      properties: { provider: { type: 'string' }, waba_id: { type: 'string' }, update_date: { type: 'string' } },
    },
    example: { provider: 'whatsapp', waba_id: '102290129340398', update_date: '2026-11-25T10:00:00.000Z' },
    description: 'Saved (sealed at rest); the secrets are never answered',
  })
  @ApiEnvelopeErrors(400, { 409: ['this WhatsApp Business Account belongs to another account', 'waba_taken'] }, 413)
  async saveCredentials(@CurrentCaller() caller: Caller, @Body() dto: SaveProviderCredentialsDto) {
    const row = await this.credentials.save(caller, dto);
    return { provider: 'whatsapp', waba_id: row.wabaId, update_date: row.updatedAt.toISOString() };
  }

  @Post('waba-subscription')
  @ApiSuccess({
    schema: {
      type: 'object',
      properties: {
        waba_id: { type: 'string' },
        subscribed: { type: 'boolean' },
        lines: { type: 'array', items: { $ref: '#/components/schemas/LineResponse' } },
      },
    },
    example: { waba_id: LINE_EXAMPLE.waba_id, subscribed: true, lines: [LINE_EXAMPLE] },
    description: "Subscribed at the provider; the account's lines synced from it",
  })
  @ApiEnvelopeErrors(PROVIDER_MISSING, PROVIDER_DOWN)
  @HttpCode(200)
  async subscribe(@CurrentCaller() caller: Caller) {
    const { wabaId, lines } = await this.lines.subscribe(caller);
    return { waba_id: wabaId, subscribed: true, lines: lines.map(presentLine) };
  }

  @Get('wabas')
  @ApiSuccess({
    schema: { type: 'array', items: { $ref: '#/components/schemas/WabaResponse' } },
    example: [WABA_EXAMPLE],
  })
  @ApiExtraModels(WabaResponse)
  wabas(@CurrentCaller() caller: Caller) {
    return this.lines.wabas(caller);
  }

  @Get('lines')
  @ApiSuccess({
    schema: { type: 'array', items: { $ref: '#/components/schemas/LineResponse' } },
    example: [LINE_EXAMPLE],
  })
  @ApiExtraModels(LineResponse)
  async list(@CurrentCaller() caller: Caller) {
    return (await this.lines.list(caller)).map(presentLine);
  }

  @Get('lines/:waba_line')
  @ApiSuccess({ type: LineResponse, example: LINE_EXAMPLE })
  @ApiEnvelopeErrors(LINE_NOT_FOUND)
  async get(@CurrentCaller() caller: Caller, @Param('waba_line') line: string) {
    return presentLine(await this.lines.get(caller.tenantId, line));
  }

  @Patch('lines/:waba_line')
  @ApiSuccess({ type: LineResponse, example: LINE_EXAMPLE })
  @ApiEnvelopeErrors(400, LINE_NOT_FOUND, 413)
  async update(@CurrentCaller() caller: Caller, @Param('waba_line') line: string, @Body() dto: UpdateLineDto) {
    return presentLine(await this.lines.update(caller, line, dto));
  }

  @Put('lines/:waba_line/config')
  @ApiSuccess({ type: LineResponse, example: LINE_EXAMPLE })
  @ApiEnvelopeErrors(400, LINE_NOT_FOUND, 413)
  async configure(@CurrentCaller() caller: Caller, @Param('waba_line') line: string, @Body() dto: LineConfigDto) {
    return presentLine(await this.lines.configure(caller, line, dto));
  }
}
