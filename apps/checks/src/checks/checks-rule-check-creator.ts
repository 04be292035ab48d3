import { CHECK_EVENT_TYPES, RuleCheckCreatedPayload, TOPICS } from '@kyc/contracts';
import { AppException, Caller, OutboxService } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import {
  RuleCheckCreator,
  RuleCheckInputs,
  RuleCheckMeta,
  RuleCheckRejected,
} from '../rule-requests/rule-check-creator';
import { ChecksService } from './checks.service';

/**
 * Creates the checks the rules engine's create_check actions ask for (account.check.requested),
 * through ChecksService.create: the same input rules as POST /v1/checks, in the inbox transaction
 * of the command (so a redelivered command creates nothing), always a new check (the command is
 * the request), with the rule depth and execution carried into its events, and replies with
 * `checks.rule-check.created` in that transaction. The caller is the
 * rule's owner with checks.country_all: the rules engine is trusted, within the tenant.
 */
@Injectable()
export class ChecksRuleCheckCreator extends RuleCheckCreator {
  constructor(
    private readonly checks: ChecksService,
    private readonly outbox: OutboxService,
  ) {
    super();
  }

  async create(tenantId: string, request: RuleCheckInputs, meta: RuleCheckMeta): Promise<{ checkId: string }> {
    const caller = new Caller(
      tenantId,
      meta.requestedBy,
      undefined,
      `rule:${meta.ruleId}:${meta.actionId}`,
      'backend',
      1,
      undefined,
      new Set(['checks.country_all']),
      [],
    );
    try {
      const { check } = await this.checks.create(
        caller,
        {
          ...request.inputs,
          country: request.country,
          type: request.type,
          user_authorized: 'true',
          force_creation: 'true',
        },
        { manager: meta.manager, ruleDepth: meta.depth, requestedByExecution: meta.executionId },
      );
      // The reply the rules engine links the check to its execution from, committed with the check.
      await this.outbox.add(meta.manager, {
        topic: TOPICS.ruleCheckCreated,
        type: CHECK_EVENT_TYPES.ruleCheckCreated,
        tenantId,
        aggregateId: meta.executionId,
        payload: {
          execution_id: meta.executionId,
          check_id: check.id,
          command_id: meta.commandId,
        } satisfies RuleCheckCreatedPayload,
      });
      return { checkId: check.id };
    } catch (err) {
      if (err instanceof AppException && err.status < 500) {
        throw new RuleCheckRejected(
          `${err.message}${err.fields.length ? `: ${err.fields.map((f) => `${f.field} (${f.message})`).join(', ')}` : ''}`,
        );
      }
      throw err;
    }
  }
}
