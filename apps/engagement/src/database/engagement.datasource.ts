import { EntityClass, PLATFORM_MIGRATIONS, serviceDataSourceOptions } from '@kyc/platform';
import { DataSource } from 'typeorm';

import { AgentEntity, AgentSettingsEntity } from '../agents/agent.entity';
import { AgentTemplateEntity } from '../agents/agent-template.entity';
import { CampaignEntity, CampaignRecipientEntity } from '../campaigns/campaign.entity';
import { CatalogEntity } from '../catalogs/catalog.entity';
import { CatalogProductEntity } from '../catalogs/catalog-product.entity';
import { ChatActivityEntity, ChatEntity } from '../chats/chat.entity';
import { ProviderCredentialEntity } from '../credentials/provider-credential.entity';
import { ChatExportEntity } from '../exports/chat-export.entity';
import { InboundEntity, SessionEntity } from '../inbounds/inbound.entity';
import { LineEntity } from '../lines/line.entity';
import { MessageEntity } from '../messages/message.entity';
import { MediaEntity } from '../outbounds/media.entity';
import { OutboundEntity, OutboundQualityEntity } from '../outbounds/outbound.entity';
import { WebhookEventEntity } from '../webhooks/webhook-event.entity';
import { EngagementMessaging1764000000000 } from './migrations/1764000000000-engagement-messaging';
import { EngagementCatalogs1764100000000 } from './migrations/1764100000000-engagement-catalogs';
import { EngagementAgentWorkspace1764100000001 } from './migrations/1764100000001-engagement-agent-workspace';
import { EngagementChatNameSearch1764200000000 } from './migrations/1764200000000-engagement-chat-name-search';
import { EngagementInboxFeed1764300000000 } from './migrations/1764300000000-engagement-inbox-feed';
import { EngagementInboxAgentEvents1764400000000 } from './migrations/1764400000000-engagement-inbox-agent-events';

/** Entities and migrations of the engagement schema, in order. Features add theirs here. */
export const engagementEntities: EntityClass[] = [
  ProviderCredentialEntity,
  LineEntity,
  MediaEntity,
  OutboundEntity,
  OutboundQualityEntity,
  MessageEntity,
  InboundEntity,
  SessionEntity,
  CampaignEntity,
  CampaignRecipientEntity,
  WebhookEventEntity,
  CatalogEntity,
  CatalogProductEntity,
  // The agent workspace.
  AgentEntity,
  AgentSettingsEntity,
  AgentTemplateEntity,
  ChatEntity,
  ChatActivityEntity,
  ChatExportEntity,
];
export const engagementMigrations = [
  ...PLATFORM_MIGRATIONS,
  EngagementMessaging1764000000000,
  EngagementCatalogs1764100000000,
  EngagementAgentWorkspace1764100000001,
  EngagementChatNameSearch1764200000000,
  EngagementInboxFeed1764300000000,
  EngagementInboxAgentEvents1764400000000,
];

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(
  serviceDataSourceOptions({
    url: process.env.DATABASE_URL ?? '',
    schema: process.env.DB_SCHEMA ?? 'engagement',
    entities: engagementEntities,
    migrations: engagementMigrations,
  }),
);
