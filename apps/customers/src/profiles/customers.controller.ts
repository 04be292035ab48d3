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
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import {
  customerPath,
  presentBasicInfo,
  presentCustomer,
  presentIdentity,
  presentMerge,
  presentTagChange,
  presentTransaction,
} from './customer.presenter';
import { CustomersService } from './customers.service';
import {
  CUSTOMER_EXAMPLE,
  CustomerResponse,
  CustomersQueryResponse,
  IDENTITIES_EXAMPLE,
  IdentitiesResponse,
  TAG_CHANGE_EXAMPLE,
  TagChangeResponse,
  TRANSACTION_EXAMPLE,
  TransactionResponse,
  WABA_LINES_EXAMPLE,
  WabaLinesResponse,
} from './dto/customer.response';
import { ListCustomersQuery } from './dto/list-customers.query';
import { ListTransactionsQuery } from './dto/list-transactions.query';
import { QueryCustomersDto } from './dto/query-customers.dto';
import { ProfileEntity } from './profile.entity';

/** Customer profiles built from every service's events: search, transactions, tags, lines. */
@ApiTags('customers')
@BackendKeys()
@Controller('v1/customers')
export class CustomersController {
  constructor(
    private readonly customers: CustomersService,
    private readonly config: PlatformConfig,
  ) {}

  @Get()
  @ApiSuccess({
    schema: {
      oneOf: [
        {
          type: 'object',
          required: ['customers', 'self'],
          properties: {
            customers: {
              type: 'array',
              items: {
                oneOf: [
                  { $ref: '#/components/schemas/CustomerResponse' },
                  { $ref: '#/components/schemas/BasicInfoResponse' },
                ],
              },
            },
            self: { type: 'string' },
            next: { type: 'string', description: 'The next page; absent on the last page' },
          },
        },
        {
          type: 'object',
          required: ['customer', 'self'],
          properties: { customer: { $ref: '#/components/schemas/CustomerResponse' }, self: { type: 'string' } },
        },
      ],
    },
    description:
      'A page of customers (only their basic info with basic_info=true); with single_match=true the one match as `customer`',
    example: { customers: [CUSTOMER_EXAMPLE], self: '/v1/customers?search=Ana' },
  })
  @ApiEnvelopeErrors(
    400,
    { 404: ['no customer matches', 'customer_not_found'] },
    {
      409: ['more than one customer matches', 'multiple_matches'],
    },
  )
  async list(@CurrentCaller() caller: Caller, @Query() query: ListCustomersQuery, @Req() req: FastifyRequest) {
    const page = await this.customers.list(caller, query);
    const present = (p: ProfileEntity): object => (query.basic_info ? presentBasicInfo(p) : presentCustomer(p));
    if (query.single_match) return { customer: present(page.items[0]), self: customerPath(page.items[0].id) };
    return { customers: page.items.map(present), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Post('query')
  @ApiSuccess({ type: CustomersQueryResponse, example: { customers: [CUSTOMER_EXAMPLE], self: '/v1/customers/query' } })
  @ApiEnvelopeErrors({ 400: ['the query reads an unknown variable', 'query_not_supported'] }, 413)
  @HttpCode(200)
  async query(@CurrentCaller() caller: Caller, @Body() dto: QueryCustomersDto, @Req() req: FastifyRequest) {
    const page = await this.customers.search(caller, dto);
    return {
      customers: page.items.map(presentCustomer),
      ...(page.nextKey ? { next_start_key: page.nextKey } : {}),
      self: new URL(req.url, this.config.publicUrl).toString(),
    };
  }

  @Get(':customer_id')
  @ApiSuccess({
    type: CustomerResponse,
    wrap: 'customer',
    with: { self: { type: 'string' } },
    example: { customer: CUSTOMER_EXAMPLE, self: '/v1/customers/CUS019ab9f2c4e0a1b2c3d4e5f6a7' },
  })
  @ApiEnvelopeErrors({ 404: ['customer CUS019ab9f2 not found', 'customer_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('customer_id') id: string) {
    const profile = await this.customers.get(caller, id);
    return { customer: presentCustomer(profile), self: customerPath(profile.id) };
  }

  @Get(':customer_id/transactions')
  @ApiPage({
    items: 'transactions',
    type: TransactionResponse,
    example: [TRANSACTION_EXAMPLE],
    self: '/v1/customers/CUS019ab9f2c4e0a1b2c3d4e5f6a7/transactions?product=check',
  })
  @ApiEnvelopeErrors(400, { 404: ['customer CUS019ab9f2 not found', 'customer_not_found'] })
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
  @ApiSuccess({
    type: TransactionResponse,
    wrap: 'transaction',
    with: { self: { type: 'string' } },
    example: {
      transaction: TRANSACTION_EXAMPLE,
      self: '/v1/customers/CUS019ab9f2c4e0a1b2c3d4e5f6a7/transactions/TRX019ab9f2c4e0a1b2c3d4e5f6a8',
    },
  })
  @ApiEnvelopeErrors({ 404: ['transaction TRX019ab9f2 not found', 'transaction_not_found'] })
  async transaction(
    @CurrentCaller() caller: Caller,
    @Param('customer_id') id: string,
    @Param('transaction_id') transactionId: string,
  ) {
    const trx = await this.customers.getTransaction(caller, id, transactionId);
    return { transaction: presentTransaction(trx), self: `${customerPath(trx.profileId)}/transactions/${trx.id}` };
  }

  @Get(':customer_id/tag-history')
  @ApiPage({
    items: 'tag_history',
    type: TagChangeResponse,
    example: [TAG_CHANGE_EXAMPLE],
    self: '/v1/customers/CUS019ab9f2c4e0a1b2c3d4e5f6a7/tag-history',
  })
  @ApiEnvelopeErrors(400, { 404: ['customer CUS019ab9f2 not found', 'customer_not_found'] })
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

  @Get(':customer_id/identities')
  @ApiSuccess({ type: IdentitiesResponse, example: IDENTITIES_EXAMPLE })
  @ApiEnvelopeErrors({ 404: ['customer CUS019ab9f2 not found', 'customer_not_found'] })
  async identities(@CurrentCaller() caller: Caller, @Param('customer_id') id: string) {
    const { profile, identifiers, merges } = await this.customers.identities(caller, id);
    return {
      identities: identifiers.map(presentIdentity),
      merges: merges.map(presentMerge),
      self: `${customerPath(profile.id)}/identities`,
    };
  }

  @Get(':customer_id/waba-lines')
  @ApiSuccess({ type: WabaLinesResponse, example: WABA_LINES_EXAMPLE })
  @ApiEnvelopeErrors({ 404: ['customer CUS019ab9f2 not found', 'customer_not_found'] })
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
