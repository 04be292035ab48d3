import { EventEnvelope } from '@kyc/contracts';
import { InboxService } from '@kyc/platform';
import { Controller, Logger } from '@nestjs/common';
import { Ctx, EventPattern, KafkaContext, Payload } from '@nestjs/microservices';

import { ProfileFoldingStore } from '../profile-folding.store';
import { PROFILE_EVENT_MAPPERS, PROFILE_TOPICS } from './profile-event-mappers';

export const PROFILE_EVENTS_CONSUMER = 'customers.profiles';

/**
 * One consumer for every service's events: the topic's mapper turns the event into a fact about
 * a person, and the folding service makes it a transaction on their profile, exactly once (the
 * inbox entry commits with the effect; a redelivered event is skipped).
 */
@Controller()
export class ProfileEventsConsumer {
  private readonly logger = new Logger('profile-events');

  constructor(
    private readonly inbox: InboxService,
    private readonly folding: ProfileFoldingStore,
  ) {}

  @EventPattern(PROFILE_TOPICS)
  async onEvent(@Payload() event: EventEnvelope<unknown>, @Ctx() context: KafkaContext): Promise<void> {
    await this.handle(context.getTopic(), event);
  }

  /** Folds one event of `topic` (exposed for the topic-less path of tests and tools). */
  async handle(topic: string, event: EventEnvelope<unknown>): Promise<void> {
    const mapper = PROFILE_EVENT_MAPPERS[topic] ?? PROFILE_EVENT_MAPPERS[event?.type];
    if (!mapper || !event?.id) return;
    const tenantId = event.tenant_id ?? (event.payload as { check?: { tenant_id?: string } })?.check?.tenant_id;
    if (!tenantId) {
      this.logger.warn({ topic, event_id: event.id, msg: 'event without tenant skipped' });
      return;
    }
    await this.inbox.handle(PROFILE_EVENTS_CONSUMER, event, async (manager) => {
      const fact = mapper(event);
      if (fact) await this.folding.fold(manager, { ...fact, tenantId });
    });
  }
}
