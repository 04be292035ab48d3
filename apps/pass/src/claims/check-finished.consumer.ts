import { CheckFinishedPayload, EventEnvelope, TOPICS } from '@kyc/contracts';
import { InboxService } from '@kyc/platform';
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';

import { ClaimStoreService } from './claim-store.service';

export const PASS_CHECK_FINISHED_CONSUMER = 'pass.claims.check-finished';

/**
 * Builds the `background` claims from the checks service: each finished check of a person known to pass
 * (matched by document number) becomes their latest background result, exactly once per event.
 */
@Controller()
export class CheckFinishedConsumer {
  constructor(
    private readonly inbox: InboxService,
    private readonly claims: ClaimStoreService,
  ) {}

  @EventPattern(TOPICS.checkFinished)
  async onCheckFinished(@Payload() event: EventEnvelope<CheckFinishedPayload>): Promise<void> {
    await this.inbox.handle(PASS_CHECK_FINISHED_CONSUMER, event, async (manager) => {
      await this.claims.applyCheckFinished(manager, event.payload);
    });
  }
}
