import type { CustomTypeCreatedPayload, CustomTypeDeletedPayload, EventEnvelope } from '@kyc/contracts';
import { TOPICS } from '@kyc/contracts';
import { InboxService } from '@kyc/platform';
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';

import { CustomTypesService } from './custom-types.service';

export const CUSTOM_TYPES_CONSUMER = 'validations.custom-types';

/** `checks.custom-type.created` / `deleted`: the names a document validation may link (once per event). */
@Controller()
export class CustomTypesConsumer {
  constructor(
    private readonly inbox: InboxService,
    private readonly types: CustomTypesService,
  ) {}

  @EventPattern(TOPICS.customTypeCreated)
  async onCreated(@Payload() event: EventEnvelope<CustomTypeCreatedPayload>): Promise<void> {
    const t = event?.payload?.custom_type;
    if (!event?.id || !t?.tenant_id) return;
    await this.inbox.handle(CUSTOM_TYPES_CONSUMER, event, (m) => this.types.created(m, t));
  }

  @EventPattern(TOPICS.customTypeDeleted)
  async onDeleted(@Payload() event: EventEnvelope<CustomTypeDeletedPayload>): Promise<void> {
    const t = event?.payload?.custom_type;
    if (!event?.id || !t?.tenant_id) return;
    await this.inbox.handle(CUSTOM_TYPES_CONSUMER, event, (m) => this.types.deleted(m, t));
  }
}
