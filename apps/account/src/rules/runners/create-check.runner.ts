import { CheckRequestedPayload, RULE_EVENT_TYPES, TOPICS } from '@kyc/contracts';
import { Job, OutboxService } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { AccountConfig } from '../../config/account.config';
import { CreateCheckConfig } from '../actions/action-config';
import { ActionJobPayload } from '../engine/action-queues';
import { ExecutionsService } from '../executions/executions.service';
import { RuleEntity } from '../rule.entity';
import { renderTemplate } from '../templates/template';
import { ActionRunContext, redact } from './action-context';

/** Who requests a check when the rule's owner is not known any more. */
export const RULES_ENGINE_ACTOR = 'rules-engine';

/**
 * create_check actions: writes the `account.check.requested` command through the outbox, in the
 * job's transaction (the command, the execution's outcome and the job's completion commit
 * together: exactly once). The checks service creates the check; its id comes back on the
 * execution from the check's `checks.check.created` event.
 */
@Injectable()
export class CreateCheckRunner {
  constructor(
    private readonly context: ActionRunContext,
    private readonly executions: ExecutionsService,
    private readonly outbox: OutboxService,
    private readonly config: AccountConfig,
  ) {}

  async run(job: Job<ActionJobPayload>, manager: EntityManager): Promise<void> {
    const run = await this.context.open(manager, job);
    if (!run) return;
    const { execution, action } = run;
    if (execution.depth >= this.config.ACCOUNT_RULES_MAX_DEPTH) {
      await this.executions.settle(manager, execution, 'skipped', {
        error: `depth limit reached (${this.config.ACCOUNT_RULES_MAX_DEPTH})`,
      });
      return;
    }
    try {
      await manager.transaction(async (m) => {
        const config = action.config as CreateCheckConfig;
        const inputs: Record<string, string> = {};
        for (const [name, template] of Object.entries(config.inputs ?? {})) {
          const value = renderTemplate(template, run.scope).trim();
          if (value) inputs[name] = value;
        }
        const rule = await m.findOneBy(RuleEntity, { id: execution.ruleId, tenantId: execution.tenantId });
        const payload: CheckRequestedPayload = {
          tenant_id: execution.tenantId,
          requested_by: rule?.updatedBy ?? RULES_ENGINE_ACTOR,
          rule_id: execution.ruleId,
          rule_version: execution.ruleVersion,
          action_id: action.id,
          execution_id: execution.id,
          source_event_id: execution.eventId,
          source_check_id: execution.checkId ?? '',
          depth: execution.depth + 1,
          type: config.type,
          country: config.country,
          inputs,
          user_authorized: true,
        };
        await this.outbox.add(m, {
          topic: TOPICS.checkRequested,
          type: RULE_EVENT_TYPES.checkRequested,
          tenantId: execution.tenantId,
          aggregateId: execution.id,
          payload,
        });
        await this.executions.settle(m, execution, 'succeeded');
      });
    } catch (err) {
      // Inside the job's transaction: a final failure is recorded and the job completes; otherwise it is retried.
      const error = redact(`the check request could not be written: ${(err as Error).message}`, run.env.secrets);
      if (!run.final) throw new Error(error);
      await this.executions.settle(manager, execution, 'failed', { error });
    }
  }
}
