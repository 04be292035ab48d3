import { PlatformModule, ServiceDefinition, ServiceOptions } from '@kyc/platform';
import { DynamicModule, Module } from '@nestjs/common';

import { AgentsModule } from './agents/agents.module';
import { AssignmentModule } from './assignment/assignment.module';
import { CallingModule } from './calling/calling.module';
import { CampaignsModule } from './campaigns/campaigns.module';
import { CatalogsModule } from './catalogs/catalogs.module';
import { ChannelsModule } from './channels/channels.module';
import { ChatsModule } from './chats/chats.module';
import { EngagementConfig, loadEngagementConfig } from './config/engagement.config';
import { engagementEntities, engagementMigrations } from './database/engagement.datasource';
import { ExportsModule } from './exports/exports.module';
import { InboundsModule } from './inbounds/inbounds.module';
import { InboxFeedModule } from './inbox-feed/inbox-feed.module';
import { LinesModule } from './lines/lines.module';
import { MessagesModule } from './messages/messages.module';
import { OutboundsModule } from './outbounds/outbounds.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** Engagement API: messaging lines, outbound templates and sends, inbound flows, campaigns, provider webhooks. */
@Module({})
export class AppModule {
  static register(config: EngagementConfig, options: ServiceOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          config,
          entities: engagementEntities,
          migrations: engagementMigrations,
          clock: options.clock,
        }),
        LinesModule,
        OutboundsModule,
        MessagesModule,
        InboundsModule,
        CampaignsModule,
        WebhooksModule,
        CatalogsModule,
        // The agent workspace.
        AssignmentModule,
        AgentsModule,
        ChatsModule,
        ExportsModule,
        ChannelsModule,
        CallingModule,
        InboxFeedModule,
      ],
    };
  }
}

export function engagementService(
  env: NodeJS.ProcessEnv = process.env,
  options: ServiceOptions = {},
): ServiceDefinition {
  const config = loadEngagementConfig(env);
  return {
    config,
    module: AppModule.register(config, options),
    entities: engagementEntities,
    migrations: engagementMigrations,
    // The provider's webhooks are signed over their exact bytes.
    rawBody: true,
    title: 'Engagement API',
    description: 'Messaging lines, outbound templates and sends, inbound flows, campaigns',
  };
}
