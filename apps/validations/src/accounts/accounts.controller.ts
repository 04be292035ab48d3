import { Caller, CurrentCaller, CursorPageQuery, pageLinks, PlatformConfig } from '@kyc/platform';
import { Body, Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { presentAccount } from './account.presenter';
import { AccountsService } from './accounts.service';
import { CreateAccountDto } from './dto/create-account.dto';

/** Accounts; their enrollments and validations are listed by EnrollmentsController and ValidationsController. */
@ApiTags('accounts')
@Controller('v1/accounts')
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateAccountDto) {
    return presentAccount(await this.accounts.create(caller, dto));
  }

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() query: CursorPageQuery, @Req() req: FastifyRequest) {
    const page = await this.accounts.list(caller, query.start_key);
    return { accounts: page.items.map(presentAccount), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':account_id')
  async get(@CurrentCaller() caller: Caller, @Param('account_id') accountId: string) {
    return presentAccount(await this.accounts.get(caller, accountId));
  }
}
