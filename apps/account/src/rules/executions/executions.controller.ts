import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  pageLinks,
  PlatformConfig,
  RequirePermissions,
} from '@kyc/platform';
import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { RULES_PERMISSION } from '../rules.permissions';
import { EXECUTION_EXAMPLE, ExecutionResponse } from './dto/execution.response';
import { ListExecutionsQuery } from './dto/list-executions.query';
import { presentExecution } from './execution.presenter';
import { ExecutionsService } from './executions.service';

@ApiTags('rules engine')
@RequirePermissions(RULES_PERMISSION)
@BackendKeys()
@Controller('v1/bre')
export class ExecutionsController {
  constructor(
    private readonly executions: ExecutionsService,
    private readonly config: PlatformConfig,
  ) {}

  @Get('executions')
  @ApiPage({ items: 'executions', type: ExecutionResponse, example: [EXECUTION_EXAMPLE], self: '/v1/bre/executions' })
  @ApiEnvelopeErrors(400, 403)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListExecutionsQuery, @Req() req: FastifyRequest) {
    const page = await this.executions.list(caller, query);
    return { executions: page.items.map(presentExecution), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get('executions/:execution_id')
  @ApiSuccess({ wrap: 'execution', type: ExecutionResponse, example: { execution: EXECUTION_EXAMPLE } })
  @ApiEnvelopeErrors(403, { 404: ['Execution EXE019ab9f2c4e0a1b2c3d4e5 not found', 'execution_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('execution_id') executionId: string) {
    return { execution: presentExecution(await this.executions.get(caller, executionId)) };
  }

  @Get('rules/:rule_id/executions')
  @ApiPage({
    items: 'executions',
    type: ExecutionResponse,
    example: [EXECUTION_EXAMPLE],
    self: `/v1/bre/rules/${EXECUTION_EXAMPLE.rule_id}/executions`,
  })
  @ApiEnvelopeErrors(400, 403, { 404: ['Rule RUL019ab9f2c4e0a1b2c3d4e5 not found', 'rule_not_found'] })
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
