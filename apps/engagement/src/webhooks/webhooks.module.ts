import { Module } from '@nestjs/common';

import { CampaignsModule } from '../campaigns/campaigns.module';
import { ChatsModule } from '../chats/chats.module';
import { InboundsModule } from '../inbounds/inbounds.module';
import { MessagesModule } from '../messages/messages.module';
import { RetentionStore } from './retention.store';
import { RetentionWorker } from './retention.worker';
import { WebhookWorker } from './webhook.worker';
import { WebhookEventStore } from './webhook-event.store';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

@Module({
  imports: [MessagesModule, InboundsModule, CampaignsModule, ChatsModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookWorker, WebhookEventStore, RetentionWorker, RetentionStore],
})
export class WebhooksModule {}
