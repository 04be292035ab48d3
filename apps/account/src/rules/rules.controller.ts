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
import { Body, Controller, Delete, Get, Param, ParseIntPipe, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { presentAction } from './actions/action.presenter';
import { CreateRuleDto } from './dto/create-rule.dto';
import { PageQuery } from './dto/list-rules.query';
import {
  RULE_EXAMPLE,
  RULE_VERSION_EXAMPLE,
  RULE_WITH_ACTIONS_EXAMPLE,
  RuleResponse,
  RuleVersionResponse,
} from './dto/rule.response';
import { UpdateRuleDto } from './dto/update-rule.dto';
import { presentRule, presentRuleVersion } from './rule.presenter';
import { RULES_PERMISSION } from './rules.permissions';
import { RulesService } from './rules.service';

@ApiTags('rules engine')
@RequirePermissions(RULES_PERMISSION)
@BackendKeys()
@Controller('v1/bre/rules')
export class RulesController {
  constructor(
    private readonly rules: RulesService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  @ApiSuccess({ status: 201, wrap: 'rule', type: RuleResponse, example: { rule: RULE_EXAMPLE } })
  @ApiEnvelopeErrors(400, 403, 413)
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateRuleDto) {
    return { rule: presentRule(await this.rules.create(caller, dto)) };
  }

  @Get()
  @ApiPage({ items: 'rules', type: RuleResponse, example: [RULE_EXAMPLE], self: '/v1/bre/rules' })
  @ApiEnvelopeErrors(400, 403)
  async list(@CurrentCaller() caller: Caller, @Query() query: PageQuery, @Req() req: FastifyRequest) {
    const page = await this.rules.list(caller, query);
    return { rules: page.items.map(presentRule), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':rule_id')
  @ApiSuccess({ wrap: 'rule', type: RuleResponse, example: { rule: RULE_WITH_ACTIONS_EXAMPLE } })
  @ApiEnvelopeErrors(403, { 404: ['Rule RUL019ab9f2c4e0a1b2c3d4e5 not found', 'rule_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('rule_id') ruleId: string) {
    const { rule, actions } = await this.rules.get(caller, ruleId);
    return { rule: { ...presentRule(rule), actions: actions.map(presentAction) } };
  }

  @Put(':rule_id')
  @ApiSuccess({ wrap: 'rule', type: RuleResponse, example: { rule: { ...RULE_EXAMPLE, version: 2 } } })
  @ApiEnvelopeErrors(400, 403, { 404: ['Rule RUL019ab9f2c4e0a1b2c3d4e5 not found', 'rule_not_found'] }, 413)
  async update(@CurrentCaller() caller: Caller, @Param('rule_id') ruleId: string, @Body() dto: UpdateRuleDto) {
    return { rule: presentRule(await this.rules.update(caller, ruleId, dto)) };
  }

  @Delete(':rule_id')
  @ApiSuccess({
    schema: { type: 'object', properties: { rule_id: { type: 'string' }, deleted: { type: 'boolean' } } },
    example: { rule_id: RULE_EXAMPLE.rule_id, deleted: true },
  })
  @ApiEnvelopeErrors(403, { 404: ['Rule RUL019ab9f2c4e0a1b2c3d4e5 not found', 'rule_not_found'] })
  async delete(@CurrentCaller() caller: Caller, @Param('rule_id') ruleId: string) {
    const rule = await this.rules.delete(caller, ruleId);
    return { rule_id: rule.id, deleted: true };
  }

  @Get(':rule_id/versions')
  @ApiPage({
    items: 'versions',
    type: RuleVersionResponse,
    example: [RULE_VERSION_EXAMPLE],
    self: `/v1/bre/rules/${RULE_EXAMPLE.rule_id}/versions`,
  })
  @ApiEnvelopeErrors(400, 403, { 404: ['Rule RUL019ab9f2c4e0a1b2c3d4e5 not found', 'rule_not_found'] })
  async versions(
    @CurrentCaller() caller: Caller,
    @Param('rule_id') ruleId: string,
    @Query() query: PageQuery,
    @Req() req: FastifyRequest,
  ) {
    const page = await this.rules.listVersions(caller, ruleId, query);
    return { versions: page.items.map(presentRuleVersion), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':rule_id/versions/:version')
  @ApiSuccess({ wrap: 'version', type: RuleVersionResponse, example: { version: RULE_VERSION_EXAMPLE } })
  @ApiEnvelopeErrors(403, { 404: ['Version 3 of rule RUL019ab9f2c4e0a1b2c3d4e5 not found', 'rule_version_not_found'] })
  async version(
    @CurrentCaller() caller: Caller,
    @Param('rule_id') ruleId: string,
    @Param('version', new ParseIntPipe({ errorHttpStatusCode: 404 })) version: number,
  ) {
    return { version: presentRuleVersion(await this.rules.getVersion(caller, ruleId, version)) };
  }
}
