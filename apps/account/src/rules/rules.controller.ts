import { Caller, CurrentCaller, pageLinks, PlatformConfig, RequirePermissions } from '@kyc/platform';
import { Body, Controller, Delete, Get, Param, ParseIntPipe, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { presentAction } from './actions/action.presenter';
import { CreateRuleDto } from './dto/create-rule.dto';
import { PageQuery } from './dto/list-rules.query';
import { UpdateRuleDto } from './dto/update-rule.dto';
import { presentRule, presentRuleVersion } from './rule.presenter';
import { RULES_PERMISSION } from './rules.permissions';
import { RulesService } from './rules.service';

@ApiTags('rules engine')
@RequirePermissions(RULES_PERMISSION)
@Controller('v1/bre/rules')
export class RulesController {
  constructor(
    private readonly rules: RulesService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateRuleDto) {
    return { rule: presentRule(await this.rules.create(caller, dto)) };
  }

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() query: PageQuery, @Req() req: FastifyRequest) {
    const page = await this.rules.list(caller, query);
    return { rules: page.items.map(presentRule), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':rule_id')
  async get(@CurrentCaller() caller: Caller, @Param('rule_id') ruleId: string) {
    const { rule, actions } = await this.rules.get(caller, ruleId);
    return { rule: { ...presentRule(rule), actions: actions.map(presentAction) } };
  }

  @Put(':rule_id')
  async update(@CurrentCaller() caller: Caller, @Param('rule_id') ruleId: string, @Body() dto: UpdateRuleDto) {
    return { rule: presentRule(await this.rules.update(caller, ruleId, dto)) };
  }

  @Delete(':rule_id')
  async delete(@CurrentCaller() caller: Caller, @Param('rule_id') ruleId: string) {
    const rule = await this.rules.delete(caller, ruleId);
    return { rule_id: rule.id, deleted: true };
  }

  @Get(':rule_id/versions')
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
  async version(
    @CurrentCaller() caller: Caller,
    @Param('rule_id') ruleId: string,
    @Param('version', new ParseIntPipe({ errorHttpStatusCode: 404 })) version: number,
  ) {
    return { version: presentRuleVersion(await this.rules.getVersion(caller, ruleId, version)) };
  }
}
