import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller, RequirePermissions } from '@kyc/platform';
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { RULES_PERMISSION } from '../rules.permissions';
import { DryRunRuleUseCase } from './dry-run-rule.use-case';
import { DRY_RUN_EXAMPLE, DryRunResponse } from './dto/dry-run.response';
import { DryRunRuleDto } from './dto/dry-run-rule.dto';

/** "Try it": a rule against a finished check, without running anything. */
@ApiTags('rules engine')
@RequirePermissions(RULES_PERMISSION)
@BackendKeys()
@Controller('v1/bre/rules')
export class DryRunController {
  constructor(private readonly dryRun: DryRunRuleUseCase) {}

  @Post(':rule_id/dry-run')
  @HttpCode(200)
  @ApiSuccess({ wrap: 'dry_run', type: DryRunResponse, example: { dry_run: DRY_RUN_EXAMPLE } })
  @ApiEnvelopeErrors(400, 403, {
    404: ['check CHK019ab9f2c4e03f1a2b3c4d5e6f7a8b9c has not finished in this account', 'finished_check_not_found'],
  })
  async run(@CurrentCaller() caller: Caller, @Param('rule_id') ruleId: string, @Body() dto: DryRunRuleDto) {
    return { dry_run: await this.dryRun.execute(caller, ruleId, dto) };
  }
}
