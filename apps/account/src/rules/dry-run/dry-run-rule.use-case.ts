import { compile, truthy } from '@kyc/json-logic';
import { Caller } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { AccountConfig } from '../../config/account.config';
import { FinishedChecksService } from '../../finished-checks/finished-checks.service';
import { parseCondition } from '../dto/json-logic-condition';
import { checkVariables } from '../engine/check-variables';
import { RULE_EVALUATION_MAX_STEPS } from '../engine/rule-cache.service';
import { RuleErrorCode, RuleException } from '../rules.exception';
import { RulesService } from '../rules.service';
import { DryRunReason, DryRunResponse } from './dto/dry-run.response';
import { DryRunRuleDto } from './dto/dry-run-rule.dto';

/**
 * "Try it": evaluates a rule (its saved condition, or a draft sent with the request) against one of
 * the tenant's finished checks exactly as the engine would on its `checks.check.finished` event,
 * and says which actions would run. Nothing is run, recorded or enqueued: no execution, no job,
 * no call out.
 */
@Injectable()
export class DryRunRuleUseCase {
  constructor(
    private readonly rules: RulesService,
    private readonly finishedChecks: FinishedChecksService,
    private readonly config: AccountConfig,
  ) {}

  async execute(caller: Caller, ruleId: string, dto: DryRunRuleDto): Promise<DryRunResponse> {
    const { rule, actions } = await this.rules.get(caller, ruleId);
    const event = await this.finishedChecks.latestEvent(caller.tenantId, dto.check_id);
    if (!event)
      throw new RuleException(
        RuleErrorCode.FinishedCheckNotFound,
        `check ${dto.check_id} has not finished in this account (or is not known to the rules engine yet)`,
      );
    const draft = dto.condition !== undefined;
    const condition = draft ? parseCondition(dto.condition) : rule.condition;
    const variables = checkVariables(event);
    let result: unknown = null;
    let error: string | null = null;
    try {
      result = compile(condition, { maxSteps: RULE_EVALUATION_MAX_STEPS })(variables);
    } catch (err) {
      error = String((err as Error)?.message ?? err);
    }
    const matched = error === null && truthy(result);
    const depth = variables.rule_depth as number;
    const reasonFor = (status: string, type: string): DryRunReason | null => {
      if (error !== null) return 'condition_failed';
      if (!matched) return 'condition_false';
      if (status !== 'enabled') return 'disabled';
      if (type === 'create_check' && depth >= this.config.ACCOUNT_RULES_MAX_DEPTH) return 'depth_limit';
      return null;
    };
    return {
      rule_id: rule.id,
      rule_version: rule.version,
      draft,
      condition,
      check_id: dto.check_id,
      event_id: event.id,
      matched,
      result: result === undefined ? null : result,
      error,
      variables,
      actions: actions.map((a) => {
        const reason = reasonFor(a.status, a.type);
        return { action_id: a.id, name: a.name, type: a.type, status: a.status, would_run: reason === null, reason };
      }),
    };
  }
}
