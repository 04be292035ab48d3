import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  CursorPageQuery,
  pageLinks,
  PlatformConfig,
} from '@kyc/platform';
import { Body, Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { presentAccount } from './account.presenter';
import { AccountsService } from './accounts.service';
import { ACCOUNT_EXAMPLE, AccountResponse } from './dto/account.response';
import { CreateAccountDto } from './dto/create-account.dto';

/** Accounts; their enrollments and validations are listed by EnrollmentsController and ValidationsController. */
@ApiTags('accounts')
@BackendKeys()
@Controller('v1/accounts')
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  @ApiSuccess({ status: 201, type: AccountResponse, example: ACCOUNT_EXAMPLE })
  @ApiEnvelopeErrors(400, { 409: ['account user-123 already exists', 'account_already_exists'] }, 413)
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateAccountDto) {
    return presentAccount(await this.accounts.create(caller, dto));
  }

  @Get()
  @ApiPage({ items: 'accounts', type: AccountResponse, example: [ACCOUNT_EXAMPLE], self: '/v1/accounts' })
  @ApiEnvelopeErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: CursorPageQuery, @Req() req: FastifyRequest) {
    const page = await this.accounts.list(caller, query.start_key);
    return { accounts: page.items.map(presentAccount), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':account_id')
  @ApiSuccess({ type: AccountResponse, example: ACCOUNT_EXAMPLE })
  @ApiEnvelopeErrors({ 404: ['account user-123 not found', 'account_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('account_id') accountId: string) {
    return presentAccount(await this.accounts.get(caller, accountId));
  }
}
