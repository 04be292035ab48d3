import { CheckRequestedPayload, EventEnvelope, TOPICS } from '@kyc/contracts';
import { InboxService } from '@kyc/platform';
import { Controller, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';

import { RuleCheckCreator, RuleCheckRejected } from './rule-check-creator';

export const RULE_CHECK_REQUESTS_CONSUMER = 'checks.rule-check-requests';

/**
 * `account.check.requested` (a create_check action of the rules engine): creates the check for
 * the tenant exactly once per command, in the inbox transaction.
 */
@Controller()
export class RuleCheckRequestedConsumer {
  private readonly logger = new Logger('rule-check-requests');

  constructor(
    private readonly inbox: InboxService,
    private readonly creator: RuleCheckCreator,
  ) {}

  @EventPattern(TOPICS.checkRequested)
  async onCheckRequested(@Payload() event: EventEnvelope<CheckRequestedPayload>): Promise<void> {
    await this.inbox.handle(RULE_CHECK_REQUESTS_CONSUMER, event, async (manager) => {
      const p = event.payload;
      const tenantId = event.tenant_id ?? p.tenant_id;
      try {
        const { checkId } = await this.creator.create(
          tenantId,
          { type: p.type, country: p.country, inputs: p.inputs ?? {}, user_authorized: true },
          {
            manager,
            commandId: event.id,
            requestedBy: p.requested_by,
            ruleId: p.rule_id,
            ruleVersion: p.rule_version,
            actionId: p.action_id,
            executionId: p.execution_id,
            depth: p.depth,
            sourceCheckId: p.source_check_id,
          },
        );
        this.logger.log({
          msg: 'check created for a rule',
          check_id: checkId,
          execution_id: p.execution_id,
          depth: p.depth,
        });
      } catch (err) {
        if (!(err instanceof RuleCheckRejected)) throw err;
        this.logger.warn({ msg: 'rule check request refused', execution_id: p.execution_id, reason: err.message });
      }
    });
  }
}
