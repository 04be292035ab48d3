import { EventEnvelope, TOPICS, ValidationFinishedPayload } from '@kyc/contracts';
import { InboxService } from '@kyc/platform';
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';

import { RecordValidationOutcomeUseCase } from './use-cases/record-validation-outcome.use-case';

export const VALIDATION_FINISHED_CONSUMER = 'identity.validation-finished';

/** `validations.validation.finished`: the validator step of a process advances (once per event). */
@Controller()
export class ValidationFinishedConsumer {
  constructor(
    private readonly inbox: InboxService,
    private readonly recordOutcome: RecordValidationOutcomeUseCase,
  ) {}

  @EventPattern(TOPICS.validationFinished)
  async onValidationFinished(@Payload() event: EventEnvelope<ValidationFinishedPayload>): Promise<void> {
    const v = event.payload?.validation;
    // The process id is whatever the validation's creator sent: looked up within the event's tenant only.
    const tenantId = event.tenant_id ?? v?.tenant_id;
    if (!v?.process_id || !tenantId) return;
    await this.inbox.handle(VALIDATION_FINISHED_CONSUMER, event, (m) =>
      this.recordOutcome.execute(m, tenantId, v.process_id!, v.validation_id, {
        status: v.validation_status,
        declined_reason: v.declined_reason,
        expired_reason: v.expired_reason,
        failure_reason: v.failure_reason,
        retries_left: v.retries_left,
        retry_until: v.retry_until,
        enrolled_value: v.enrolled_email ?? v.enrolled_phone_number,
      }),
    );
  }
}
