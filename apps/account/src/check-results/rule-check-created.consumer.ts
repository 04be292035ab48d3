import { EventEnvelope, RuleCheckCreatedPayload, TOPICS } from '@kyc/contracts';
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';

import { ExecutionsService } from '../rules/executions/executions.service';

/**
 * Links a check created by a create_check action back to its execution (`created_check_id`) from
 * the checks service's reply (`checks.rule-check.created`), not from every `checks.check.created`.
 * The update is idempotent, so no inbox entry.
 */
@Controller()
export class RuleCheckCreatedConsumer {
  constructor(private readonly executions: ExecutionsService) {}

  @EventPattern(TOPICS.ruleCheckCreated)
  async onRuleCheckCreated(@Payload() event: EventEnvelope<RuleCheckCreatedPayload>): Promise<void> {
    const p = event.payload;
    if (!p?.execution_id || !p.check_id || !event.tenant_id) return;
    await this.executions.linkCreatedCheck(event.tenant_id, p.execution_id, p.check_id);
  }
}
