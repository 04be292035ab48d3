import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller, EndUserKeys } from '@kyc/platform';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { FeedWalletDto } from './dto/feed-wallet.dto';
import { WalletService } from './wallet.service';

@ApiTags('processes')
@BackendKeys()
@Controller('v1/processes')
export class WalletController {
  constructor(private readonly wallet: WalletService) {}

  @EndUserKeys()
  @Post('feed-wallet')
  @HttpCode(200)
  @ApiSuccess({
    schema: {
      type: 'object',
      required: ['process_id', 'written'],
      properties: { process_id: { type: 'string' }, written: { type: 'integer' } },
    },
    example: { process_id: 'IDP0a1b2c3d4e5f60718293a4b5c6d7e8f9', written: 1 },
  })
  @ApiEnvelopeErrors(
    400,
    { 403: ["the wallet is fed with the process's web key", 'web_key_required'] },
    { 404: ['this key has not started a process', 'process_not_found'] },
    { 409: ['only a successful process feeds the wallet (its validations are verified)', 'process_not_finished'] },
    { 422: ['the wallet refused the code: 400', 'wallet_refused'] },
    503,
  )
  async feed(@CurrentCaller() caller: Caller, @Body() dto: FeedWalletDto) {
    const { process, written } = await this.wallet.feed(caller, dto.code);
    return { process_id: process.id, written };
  }
}
