import { Caller, CurrentCaller, CursorPageQuery, pageLinks, PlatformConfig } from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import {
  customerPath,
  presentBasicInfo,
  presentCustomer,
  presentTagChange,
  presentTransaction,
} from './customer.presenter';
import { CustomersService } from './customers.service';
import { ListCustomersQuery } from './dto/list-customers.query';
import { ListTransactionsQuery } from './dto/list-transactions.query';
import { QueryCustomersDto } from './dto/query-customers.dto';
import { ProfileEntity } from './profile.entity';

/** Customer profiles built from every service's events: search, transactions, tags, lines. */
@ApiTags('customers')
@Controller('v1/customers')
export class CustomersController {
  constructor(
    private readonly customers: CustomersService,
    private readonly config: PlatformConfig,
  ) {}

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListCustomersQuery, @Req() req: FastifyRequest) {
    const page = await this.customers.list(caller, query);
    const present = (p: ProfileEntity): object => (query.basic_info ? presentBasicInfo(p) : presentCustomer(p));
    if (query.single_match) return { customer: present(page.items[0]), self: customerPath(page.items[0].id) };
    return { customers: page.items.map(present), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Post('query')
  @HttpCode(200)
  async query(@CurrentCaller() caller: Caller, @Body() dto: QueryCustomersDto, @Req() req: FastifyRequest) {
    const page = await this.customers.query(caller, dto);
    return {
      customers: page.items.map(presentCustomer),
      ...(page.nextKey ? { next_start_key: page.nextKey } : {}),
      self: new URL(req.url, this.config.publicUrl).toString(),
    };
  }

  @Get(':customer_id')
  async get(@CurrentCaller() caller: Caller, @Param('customer_id') id: string) {
    const profile = await this.customers.get(caller, id);
    return { customer: presentCustomer(profile), self: customerPath(profile.id) };
  }

  @Get(':customer_id/transactions')
  async transactions(
    @CurrentCaller() caller: Caller,
    @Param('customer_id') id: string,
    @Query() query: ListTransactionsQuery,
    @Req() req: FastifyRequest,
  ) {
    const page = await this.customers.listTransactions(caller, id, query);
    return {
      transactions: page.items.map(presentTransaction),
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }

  @Get(':customer_id/transactions/:transaction_id')
  async transaction(
    @CurrentCaller() caller: Caller,
    @Param('customer_id') id: string,
    @Param('transaction_id') transactionId: string,
  ) {
    const trx = await this.customers.getTransaction(caller, id, transactionId);
    return { transaction: presentTransaction(trx), self: `${customerPath(trx.profileId)}/transactions/${trx.id}` };
  }

  @Get(':customer_id/tag-history')
  async tagHistory(
    @CurrentCaller() caller: Caller,
    @Param('customer_id') id: string,
    @Query() query: CursorPageQuery,
    @Req() req: FastifyRequest,
  ) {
    const page = await this.customers.tagHistory(caller, id, query.start_key, query.limit);
    return {
      tag_history: page.items.map(presentTagChange),
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }

  @Get(':customer_id/waba-lines')
  async wabaLines(@CurrentCaller() caller: Caller, @Param('customer_id') id: string) {
    const lines = await this.customers.wabaLines(caller, id);
    return {
      waba_lines: lines.map((l) => ({
        waba_phone_number: l.wabaPhoneNumber,
        first_seen_at: l.firstSeenAt.toISOString(),
        last_seen_at: l.lastSeenAt.toISOString(),
      })),
    };
  }
}
