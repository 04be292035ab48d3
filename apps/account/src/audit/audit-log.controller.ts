import {
  ApiEnvelopeErrors,
  ApiPage,
  BackendKeys,
  Caller,
  CurrentCaller,
  pageLinks,
  PlatformConfig,
  RequirePermissions,
} from '@kyc/platform';
import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { AuditLogEntity } from './audit-log.entity';
import { AuditLogService } from './audit-log.service';
import { AUDIT_ENTRY_EXAMPLE, AuditEntryResponse } from './dto/audit-entry.response';
import { ListAuditLogQuery } from './dto/list-audit-log.query';

const present = (e: AuditLogEntity) => ({
  audit_id: e.id,
  action: e.action,
  resource_type: e.resourceType,
  resource_id: e.resourceId,
  actor_id: e.actorId,
  actor_username: e.actorUsername,
  changes: e.changes,
  reason: e.reason,
  request_id: e.requestId,
  creation_date: e.createdAt.toISOString(),
});

@ApiTags('audit')
@BackendKeys()
@Controller('v1/account/audit-log')
export class AuditLogController {
  constructor(
    private readonly audit: AuditLogService,
    private readonly config: PlatformConfig,
  ) {}

  @Get()
  @ApiPage({
    items: 'entries',
    type: AuditEntryResponse,
    example: [AUDIT_ENTRY_EXAMPLE],
    self: '/v1/account/audit-log',
  })
  @ApiEnvelopeErrors(400, 403)
  @RequirePermissions('svc.users')
  async list(@CurrentCaller() caller: Caller, @Query() query: ListAuditLogQuery, @Req() req: FastifyRequest) {
    const page = await this.audit.list(caller, query);
    return { entries: page.items.map(present), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }
}
