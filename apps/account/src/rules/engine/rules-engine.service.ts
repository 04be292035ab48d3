import type { CheckFinishedPayload, EventEnvelope } from '@kyc/contracts';
import { JobQueueService } from '@kyc/platform';
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { AccountConfig } from '../../config/account.config';
import { ExecutionEntity, ExecutionOutcome } from '../executions/execution.entity';
import { newExecutionId } from '../executions/executions.service';
import { ACTION_QUEUES, actionJobKey,ActionJobPayload } from './action-queues';
import { checkVariables } from './check-variables';
import { RuleCacheService } from './rule-cache.service';
import { LoadedAction, LoadedRule, matchRules } from './rule-matcher';

/**
 * Runs a tenant's rules on an event, inside the transaction that records the event in the inbox:
 * each enabled action of each matching rule gets an execution row and a durable job, committed
 * together with the inbox record. A redelivered event is skipped by the inbox, and the execution
 * (unique per event and action) and the job's dedupe key make a second run impossible anyway.
 */
@Injectable()
export class RulesEngineService {
  private readonly logger = new Logger('rules-engine');

  constructor(
    private readonly cache: RuleCacheService,
    private readonly jobs: JobQueueService,
    private readonly config: AccountConfig,
  ) {}

  async onCheckFinished(
    manager: EntityManager,
    event: EventEnvelope<CheckFinishedPayload>,
  ): Promise<{ matched: number; executions: number }> {
    const tenantId = event.tenant_id ?? event.payload.check.tenant_id;
    const rules = await this.cache.rulesFor(manager, tenantId, event.type);
    if (!rules.length) return { matched: 0, executions: 0 };
    const variables = checkVariables(event);
    const depth = variables.rule_depth as number;
    const { matched, failed } = matchRules(rules, variables);
    const now = new Date();
    const rows: ExecutionEntity[] = [];
    const jobs: { row: ExecutionEntity; action: LoadedAction }[] = [];
    const row = (
      rule: LoadedRule,
      action: LoadedAction,
      outcome: ExecutionOutcome,
      error: string | null,
    ): ExecutionEntity =>
      Object.assign(new ExecutionEntity(), {
        id: newExecutionId(),
        tenantId,
        ruleId: rule.id,
        ruleVersion: rule.version,
        actionId: action.id,
        actionType: action.type,
        eventId: event.id,
        checkId: event.payload.check.check_id,
        depth,
        outcome,
        attempts: 0,
        responseStatus: null,
        error,
        createdCheckId: null,
        createdAt: now,
        startedAt: null,
        finishedAt: outcome === 'pending' ? null : now,
        updatedAt: now,
      });
    for (const { rule, error } of failed) {
      this.logger.warn({ rule_id: rule.id, event_id: event.id, msg: 'rule condition failed on an event', error });
      for (const action of rule.actions)
        rows.push(row(rule, action, 'failed', `the condition could not be evaluated: ${error}`));
    }
    for (const rule of matched) {
      for (const action of rule.actions) {
        if (action.type === 'create_check' && depth >= this.config.ACCOUNT_RULES_MAX_DEPTH) {
          rows.push(
            row(
              rule,
              action,
              'skipped',
              `depth limit reached: the check is at rule depth ${depth} and chains stop at ${this.config.ACCOUNT_RULES_MAX_DEPTH}`,
            ),
          );
          continue;
        }
        const r = row(rule, action, 'pending', null);
        rows.push(r);
        jobs.push({ row: r, action });
      }
    }
    if (!rows.length) return { matched: matched.length, executions: 0 };
    const inserted = await manager
      .createQueryBuilder()
      .insert()
      .into(ExecutionEntity)
      .values(rows)
      .orIgnore()
      .returning(['id'])
      .execute();
    const fresh = new Set((inserted.raw as { id: string }[]).map((r) => r.id));
    for (const { row: r, action } of jobs) {
      if (!fresh.has(r.id)) continue;
      await this.jobs.enqueue<ActionJobPayload>(
        manager,
        ACTION_QUEUES[action.type],
        { execution_id: r.id, event_id: event.id },
        { tenantId, dedupeKey: actionJobKey(event.id, action.id), maxAttempts: action.maxAttempts },
      );
    }
    return { matched: matched.length, executions: fresh.size };
  }
}
