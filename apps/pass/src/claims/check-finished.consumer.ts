import { CheckCreatedPayload, CheckFinishedPayload, EventEnvelope, TOPICS } from '@kyc/contracts';
import { InboxService } from '@kyc/platform';
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';

import { ClaimStoreService } from './claim-store.service';

export const PASS_CHECK_FINISHED_CONSUMER = 'pass.claims.check-finished';
export const PASS_CHECK_CREATED_CONSUMER = 'pass.claims.check-created';

/**
 * Builds the `background` claims from the checks service: each check of a person known to pass (matched by
 * document number) becomes their latest background check, in progress when created and its result when
 * finished, exactly once per event.
 */
@Controller()
export class CheckFinishedConsumer {
  constructor(
    private readonly inbox: InboxService,
    private readonly claims: ClaimStoreService,
  ) {}

  @EventPattern(TOPICS.checkCreated)
  async onCheckCreated(@Payload() event: EventEnvelope<CheckCreatedPayload>): Promise<void> {
    await this.inbox.handle(PASS_CHECK_CREATED_CONSUMER, event, async (manager) => {
      await this.claims.applyCheckCreated(manager, event.payload);
    });
  }

  @EventPattern(TOPICS.checkFinished)
  async onCheckFinished(@Payload() event: EventEnvelope<CheckFinishedPayload>): Promise<void> {
    await this.inbox.handle(PASS_CHECK_FINISHED_CONSUMER, event, async (manager) => {
      await this.claims.applyCheckFinished(manager, event.payload);
    });
  }
}
