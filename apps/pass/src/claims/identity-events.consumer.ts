import { EventEnvelope, ProcessFinishedPayload, TOPICS, ValidationFinishedPayload } from '@kyc/contracts';
import { InboxService } from '@kyc/platform';
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';

import { IdentityClaimsService } from './identity-claims.service';

export const PASS_PROCESS_FINISHED_CONSUMER = 'pass.claims.process-finished';
export const PASS_VALIDATION_FINISHED_CONSUMER = 'pass.claims.validation-finished';

/**
 * Verified identity data from the identity service (finished processes) and the validators suite (finished
 * validations), each event applied exactly once (the inbox) in one transaction with its claim changes.
 */
@Controller()
export class IdentityEventsConsumer {
  constructor(
    private readonly inbox: InboxService,
    private readonly claims: IdentityClaimsService,
  ) {}

  @EventPattern(TOPICS.processFinished)
  async onProcessFinished(@Payload() event: EventEnvelope<ProcessFinishedPayload>): Promise<void> {
    await this.inbox.handle(PASS_PROCESS_FINISHED_CONSUMER, event, async (manager) => {
      await this.claims.applyProcessFinished(manager, event.payload);
    });
  }

  @EventPattern(TOPICS.validationFinished)
  async onValidationFinished(@Payload() event: EventEnvelope<ValidationFinishedPayload>): Promise<void> {
    await this.inbox.handle(PASS_VALIDATION_FINISHED_CONSUMER, event, async (manager) => {
      await this.claims.applyValidationFinished(manager, event.payload);
    });
  }
}
