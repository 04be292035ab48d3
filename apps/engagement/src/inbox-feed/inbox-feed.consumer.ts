import { EventEnvelope, MessageStatusChangedEvent, TOPICS } from '@kyc/contracts';
import { Clock, createKafka } from '@kyc/platform';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Consumer, EachBatchPayload, KafkaMessage } from 'kafkajs';

import { EngagementConfig } from '../config/engagement.config';
import { agentEventRow, chatEventRow, INBOX_TOPICS, MessageEvent, NewInboxEvent } from './inbox-event';
import { InboxEventStore } from './inbox-event.store';
import { InboxFeedService } from './inbox-feed.service';

/**
 * Feeds the inbox from the Kafka events the service already publishes (a user's message, a message's
 * delivery status, a chat opened, assigned or closed, an agent's status or a capacity changed): each becomes one row of inbox_events (a Kafka batch at a time: one lookup, one insert), with the
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
      eachBatch: async (payload: EachBatchPayload) => {
        await this.onBatch(payload.batch.topic, payload.batch.messages);
        await payload.heartbeat();
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.disconnect().catch(() => undefined);
  }

  /** One Kafka batch of a topic's partition: its rows resolved with one lookup and appended with one statement. */
  private async onBatch(topic: string, messages: KafkaMessage[]): Promise<void> {
    const windowStart = this.clock.now().getTime() - this.config.ENGAGEMENT_INBOX_REPLAY_MINUTES * 60_000;
    const events: EventEnvelope<unknown>[] = [];
    for (const message of messages) {
      if (!message.value) continue;
      try {
        const e = JSON.parse(message.value.toString()) as EventEnvelope<unknown>;
        if (e?.id && e.tenant_id && Date.parse(e.occurred_at) >= windowStart) events.push(e);
      } catch {
        this.logger.warn({ topic, offset: message.offset, msg: 'unreadable event skipped' });
      }
    }
    const rows = await this.toRows(topic, events);
    if (rows.length && (await this.store.append(rows)) > 0) this.feed.wake();
  }

  /** The feed rows of a topic's events (none for an event not about a chat, e.g. a campaign message's status). */
  async toRows(topic: string, events: EventEnvelope<unknown>[]): Promise<NewInboxEvent[]> {
    if (topic === TOPICS.engagementMessageReceived || topic === TOPICS.engagementMessageStatusChanged) {
      const chats = await this.store.messageChats(
        events.map((e) => ({ messageId: (e.payload as MessageEvent).message_id, tenantId: e.tenant_id! })),
      );
      return events.flatMap((e): NewInboxEvent[] => {
        const p = e.payload as MessageEvent;
        const chat = chats.get(p.message_id);
        if (!chat) return [];
        const base = {
          event_id: e.id,
          tenant_id: e.tenant_id!,
          chat_id: chat.chat_id,
          owner: chat.owner,
          previous_owner: null,
          created_at: new Date(e.occurred_at),
        };
        if (topic === TOPICS.engagementMessageReceived)
          return [
            {
              ...base,
              type: 'message.received' as const,
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
            },
          ];
        const s = p as MessageStatusChangedEvent;
        return [
          {
            ...base,
            type: 'message.status' as const,
            data: {
              chat_id: chat.chat_id,
              message_id: s.message_id,
              status: s.status,
              previous_status: s.previous_status,
              ...(s.error ? { error: s.error } : {}),
            },
          },
        ];
      });
    }
    if (topic === TOPICS.engagementAgentStatusChanged || topic === TOPICS.engagementAgentCapacityChanged)
      return events
        .map((e) => agentEventRow(topic, e as Parameters<typeof agentEventRow>[1]))
        .filter((r): r is NewInboxEvent => !!r);
    const rows = events
      .map((e) => chatEventRow(topic, e as Parameters<typeof chatEventRow>[1]))
      .filter((r): r is NewInboxEvent => !!r);
    // A chat the ruleset gave an agent in the transaction that opened it is hers from the start:
    // its opening is not shown to every agent as a queued chat.
    const opened = rows.filter((r) => r.type === 'chat.opened');
    if (opened.length) {
      const owners = await this.store.chatOwners(opened.flatMap((r) => (r.chat_id ? [r.chat_id] : [])));
      for (const r of opened) {
        const now = r.chat_id ? owners.get(r.chat_id) : undefined;
        if (now?.tenant_id === r.tenant_id) r.owner = now.owner;
      }
    }
    return rows;
  }
}
