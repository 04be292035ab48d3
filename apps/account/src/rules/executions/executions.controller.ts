import { Caller, CurrentCaller, pageLinks, PlatformConfig, RequirePermissions } from '@kyc/platform';
import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { RULES_PERMISSION } from '../rules.permissions';
import { ListExecutionsQuery } from './dto/list-executions.query';
import { presentExecution } from './execution.presenter';
import { ExecutionsService } from './executions.service';

@ApiTags('rules engine')
@RequirePermissions(RULES_PERMISSION)
@Controller('v1/bre')
export class ExecutionsController {
  constructor(
    private readonly executions: ExecutionsService,
    private readonly config: PlatformConfig,
  ) {}

  @Get('executions')
  async list(@CurrentCaller() caller: Caller, @Query() query: ListExecutionsQuery, @Req() req: FastifyRequest) {
    const page = await this.executions.list(caller, query);
    return { executions: page.items.map(presentExecution), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get('executions/:execution_id')
  async get(@CurrentCaller() caller: Caller, @Param('execution_id') executionId: string) {
    return { execution: presentExecution(await this.executions.get(caller, executionId)) };
  }

  @Get('rules/:rule_id/executions')
  async listOfRule(
    @CurrentCaller() caller: Caller,
    @Param('rule_id') ruleId: string,
    @Query() query: ListExecutionsQuery,
    @Req() req: FastifyRequest,
  ) {
    const page = await this.executions.listOfRule(caller, ruleId, query);
    return { executions: page.items.map(presentExecution), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }
}
