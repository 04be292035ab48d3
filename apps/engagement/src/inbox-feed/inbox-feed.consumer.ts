import { EventEnvelope, MessageReceivedEvent, MessageStatusChangedEvent, TOPICS } from '@kyc/contracts';
import { Clock, createKafka } from '@kyc/platform';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Consumer, EachMessagePayload } from 'kafkajs';

import { EngagementConfig } from '../config/engagement.config';
import { chatEventRow, INBOX_TOPICS, NewInboxEvent } from './inbox-event';
import { InboxEventStore } from './inbox-event.store';
import { InboxFeedService } from './inbox-feed.service';

/**
 * Feeds the inbox from the Kafka events the service already publishes (a user's message, a message's
 * delivery status, a chat opened, assigned or closed): each becomes one row of inbox_events, with the
 * chat and its owner resolved, in commit order (its seq is the push channel's event id). One consumer
 * group for every worker process (`<KAFKA_CONSUMER_GROUP>.inbox-feed`); a redelivered event adds
 * nothing (unique event id). Events older than the replay window are skipped (a new group reading
 * the topics from the beginning does not refill history).
 */
@Injectable()
export class InboxFeedConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('inbox-feed');
  private consumer?: Consumer;

  constructor(
    private readonly config: EngagementConfig,
    private readonly store: InboxEventStore,
    private readonly feed: InboxFeedService,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.ENGAGEMENT_WORKER_ENABLED) return;
    const kafka = createKafka(this.config.kafkaConnection, 'inbox-feed');
    this.consumer = kafka.consumer({
      groupId: `${this.config.KAFKA_CONSUMER_GROUP ?? this.config.SERVICE_NAME}.inbox-feed`,
      maxWaitTimeInMs: 100,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      allowAutoTopicCreation: false,
    });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: INBOX_TOPICS, fromBeginning: true });
    await this.consumer.run({
      partitionsConsumedConcurrently: 3,
      eachMessage: (msg: EachMessagePayload) => this.onMessage(msg),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.disconnect().catch(() => undefined);
  }

  private async onMessage({ topic, message }: EachMessagePayload): Promise<void> {
    if (!message.value) return;
    let envelope: EventEnvelope<unknown>;
    try {
      envelope = JSON.parse(message.value.toString()) as EventEnvelope<unknown>;
    } catch {
      this.logger.warn({ topic, offset: message.offset, msg: 'unreadable event skipped' });
      return;
    }
    const windowStart = this.clock.now().getTime() - this.config.ENGAGEMENT_INBOX_REPLAY_MINUTES * 60_000;
    if (!envelope?.id || Date.parse(envelope.occurred_at) < windowStart) return;
    const row = await this.toRow(topic, envelope);
    if (!row) return;
    const added = await this.store.append([
      row.event_id,
      row.tenant_id,
      row.chat_id,
      row.owner,
      row.previous_owner,
      row.type,
      JSON.stringify(row.data),
      row.created_at,
    ]);
    if (added) this.feed.wake();
  }

  /** The feed row of an event (undefined: not about a chat, e.g. a campaign message's status). */
  async toRow(topic: string, e: EventEnvelope<unknown>): Promise<NewInboxEvent | undefined> {
    if (!e.tenant_id) return undefined;
    if (topic === TOPICS.engagementMessageReceived || topic === TOPICS.engagementMessageStatusChanged) {
      const p = e.payload as MessageReceivedEvent | MessageStatusChangedEvent;
      const chat = await this.store.messageChat(p.message_id, e.tenant_id);
      if (!chat) return undefined;
      const base = {
        event_id: e.id,
        tenant_id: e.tenant_id,
        chat_id: chat.chat_id,
        owner: chat.owner,
        previous_owner: null,
        created_at: new Date(e.occurred_at),
      };
      if (topic === TOPICS.engagementMessageReceived)
        return {
          ...base,
          type: 'message.received',
          data: {
            chat_id: chat.chat_id,
            activity: {
              activity_id: chat.activity_id,
              chat_id: chat.chat_id,
              actor_type: chat.actor_type,
              actor: chat.actor,
              activity_type: 'message',
              text: chat.text,
              message_id: p.message_id,
              message_status: chat.message_status,
              chat_status: null,
              owner: null,
              creation_date: new Date(chat.created_at).toISOString(),
            },
          },
        };
      const s = p as MessageStatusChangedEvent;
      return {
        ...base,
        type: 'message.status',
        data: {
          chat_id: chat.chat_id,
          message_id: s.message_id,
          status: s.status,
          previous_status: s.previous_status,
          ...(s.error ? { error: s.error } : {}),
        },
      };
    }
    const row = chatEventRow(topic, e as Parameters<typeof chatEventRow>[1]);
    // A chat the ruleset gave an agent in the transaction that opened it is hers from the start:
    // its opening is not shown to every agent as a queued chat.
    if (row?.type === 'chat.opened') row.owner = (await this.store.chatOwner(row.chat_id, row.tenant_id)) ?? null;
    return row;
  }
}
