import { ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE, ENGAGEMENT_READ } from '@kyc/contracts';
import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller, RequirePermissions } from '@kyc/platform';
import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { RULESET_EXAMPLE, RulesetResponse } from './dto/ruleset.response';
import { UpdateRulesetDto } from './dto/update-ruleset.dto';
import { presentRuleset, RulesetsService } from './rulesets.service';

const NOT_FOUND = { 404: ['assignment ruleset x not found', 'ruleset_not_found'] as [string, string] };

/** The tenant's assignment ruleset (`default`). */
@ApiTags('agent workspace: assignment')
@BackendKeys()
@Controller('v1/engagement/agent/assignment-rulesets')
export class RulesetsController {
  constructor(private readonly rulesets: RulesetsService) {}

  @RequirePermissions(ENGAGEMENT_READ, ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Get(':ruleset_id')
  @ApiSuccess({ type: RulesetResponse, example: RULESET_EXAMPLE })
  @ApiEnvelopeErrors(403, NOT_FOUND)
  async get(@CurrentCaller() caller: Caller, @Param('ruleset_id') id: string) {
    return presentRuleset(await this.rulesets.get(caller, id));
  }

  @RequirePermissions(ENGAGEMENT_MANAGE)
  @Put(':ruleset_id')
  @ApiSuccess({ type: RulesetResponse, example: { ...RULESET_EXAMPLE, strategy: 'least_busy' } })
  @ApiEnvelopeErrors(403, 400, NOT_FOUND)
  async update(@CurrentCaller() caller: Caller, @Param('ruleset_id') id: string, @Body() dto: UpdateRulesetDto) {
    return presentRuleset(await this.rulesets.update(caller, id, dto));
  }
}
