import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { CheckCreatedPayload, EventEnvelope, TOPICS } from '@kyc/contracts';
import { ExecutionsService } from '../rules/executions/executions.service';

/**
 * Links a check created by a create_check action back to its execution (`created_check_id`).
 * Only checks with `requested_by_execution` matter; the update is idempotent, so no inbox entry.
 */
@Controller()
export class CheckCreatedConsumer {
  constructor(private readonly executions: ExecutionsService) {}

  @EventPattern(TOPICS.checkCreated)
  async onCheckCreated(@Payload() event: EventEnvelope<CheckCreatedPayload>): Promise<void> {
    const check = event.payload?.check;
    if (!check?.requested_by_execution) return;
    await this.executions.linkCreatedCheck(event.tenant_id ?? check.tenant_id, check.requested_by_execution, check.check_id);
  }
}
