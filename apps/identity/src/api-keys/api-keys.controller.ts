import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  CursorPageQuery,
  pageLinks,
  PlatformAdmin,
  PlatformConfig,
  RequirePermissions,
} from '@kyc/platform';
import { Body, Controller, Delete, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { presentApiKey } from './api-key.presenter';
import { ApiKeysService } from './api-keys.service';
import { API_KEY_EXAMPLE, ApiKeyResponse, ISSUED_API_KEY_EXAMPLE, IssuedApiKeyResponse } from './dto/api-key.response';
import { AdminIssueApiKeyDto, CreateApiKeyDto } from './dto/issue-api-key.dto';

@ApiTags('api keys')
@BackendKeys()
@Controller('v1/api-keys')
export class ApiKeysController {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  @RequirePermissions('svc.keys')
  @ApiSuccess({ status: 201, type: IssuedApiKeyResponse, example: ISSUED_API_KEY_EXAMPLE })
  @ApiEnvelopeErrors(400, 403, { 404: ['flow IDFnope not found', 'flow_not_found'] }, 413)
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateApiKeyDto) {
    const { key, token } = await this.apiKeys.issue({
      tenantId: caller.tenantId,
      userId: caller.userId,
      name: (dto.name ?? dto.key_name)!,
      keyType: dto.key_type,
      version: dto.version ?? dto.api_key_version ?? 0,
      expiresInSeconds: dto.expires_in,
      grant: dto.grant,
      flowId: dto.flow ?? dto.flow_id,
      country: dto.country,
      documentType: dto.document_type,
      redirectUrl: dto.redirect_url,
      accountId: dto.account_id,
      emails: dto.emails,
      phones: dto.phone,
      billingHub: dto.billing_hub,
    });
    return { api_key: token, message: 'API key created', ...presentApiKey(key) };
  }

  @Get()
  @RequirePermissions('svc.keys')
  @ApiPage({ items: 'api_keys', type: ApiKeyResponse, example: [API_KEY_EXAMPLE], self: '/v1/api-keys' })
  @ApiEnvelopeErrors(400, 403)
  async list(@CurrentCaller() caller: Caller, @Query() query: CursorPageQuery, @Req() req: FastifyRequest) {
    const page = await this.apiKeys.list(caller.tenantId, query.start_key);
    return { api_keys: page.items.map(presentApiKey), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Delete(':key_id')
  @RequirePermissions('svc.keys')
  @ApiSuccess({
    type: ApiKeyResponse,
    example: { ...API_KEY_EXAMPLE, revocation_date: '2026-11-25T07:00:00.000Z' },
  })
  @ApiEnvelopeErrors(403, { 404: ['API key KEY019ab9f2c4e0a1b2c3d4e5 not found', 'api_key_not_found'] })
  async revoke(@CurrentCaller() caller: Caller, @Param('key_id') keyId: string) {
    return presentApiKey(await this.apiKeys.revoke(caller.tenantId, keyId));
  }
}

@ApiTags('platform administration')
@PlatformAdmin()
@Controller('v1/admin/api-keys')
export class AdminApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @ApiSuccess({ status: 201, type: IssuedApiKeyResponse, example: ISSUED_API_KEY_EXAMPLE })
  @ApiEnvelopeErrors(400, { 403: ['Requires a platform operator token', 'forbidden'] }, 413)
  async create(@Body() dto: AdminIssueApiKeyDto) {
    const { key, token } = await this.apiKeys.issue({
      tenantId: dto.tenant_id,
      userId: dto.user_id,
      name: dto.key_name,
      keyType: dto.key_type,
      version: dto.api_key_version ?? 0,
    });
    return { api_key: token, message: 'API key created', ...presentApiKey(key) };
  }
}
