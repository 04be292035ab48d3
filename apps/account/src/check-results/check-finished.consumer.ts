import { CheckFinishedPayload, EventEnvelope, TOPICS } from '@kyc/contracts';
import { InboxService } from '@kyc/platform';
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';

import { FinishedCheckEntity } from '../finished-checks/finished-check.entity';
import { RulesEngineService } from '../rules/engine/rules-engine.service';

export const CHECK_FINISHED_CONSUMER = 'account.finished-checks';

/**
 * Records each finished check and runs the tenant's rules on it, exactly once: the inbox skips
 * redelivered events, and the record, the executions and their jobs commit with the inbox entry.
 */
@Controller()
export class CheckFinishedConsumer {
  constructor(
    private readonly inbox: InboxService,
    private readonly rules: RulesEngineService,
  ) {}

  @EventPattern(TOPICS.checkFinished)
  async onCheckFinished(@Payload() event: EventEnvelope<CheckFinishedPayload>): Promise<void> {
    await this.inbox.handle(CHECK_FINISHED_CONSUMER, event, async (manager) => {
      await manager.insert(FinishedCheckEntity, {
        eventId: event.id,
        tenantId: event.tenant_id ?? event.payload.check.tenant_id,
        checkId: event.payload.check.check_id,
        status: event.payload.check.status,
        score: event.payload.check.score,
        payload: event.payload,
      });
      await this.rules.onCheckFinished(manager, event);
    });
  }
}
