import { Module } from '@nestjs/common';

import { InboxEventStore } from './inbox-event.store';
import { InboxEventsController } from './inbox-events.controller';
import { InboxFeedConsumer } from './inbox-feed.consumer';
import { InboxFeedService } from './inbox-feed.service';
import { InboxStreamService } from './inbox-stream.service';

/** The agent inbox's push channel: Kafka events → inbox_events (replay window) → server-sent events per session. */
@Module({
  controllers: [InboxEventsController],
  providers: [InboxEventStore, InboxFeedService, InboxFeedConsumer, InboxStreamService],
})
export class InboxFeedModule {}
