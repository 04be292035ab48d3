import {
  ENGAGEMENT_EVENT_TYPES,
  MessageReceivedEvent,
  MessageSentEvent,
  MessageStatus,
  MessageStatusChangedEvent,
  TOPICS,
} from '@kyc/contracts';
import { Caller, Clock, FieldError, OutboxService, OutgoingEvent, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';

import { providerNotConfigured, viaProvider } from '../credentials/credentials.service';
import { CODE_VALUE_MAX } from '../outbounds/dto/outbound-rules';
import { OutboundsService } from '../outbounds/outbounds.service';
import { MessagingProvider, ProviderCredentials } from '../provider/messaging-provider';
import type { ProviderStatus } from '../provider/whatsapp-webhook';
import { e164, joinPhone, newId } from '../shared/phones';
import { SendOutboundDto } from './dto/send-outbound.dto';
import { MessageEntity } from './message.entity';
import { MessageStore, StatusMove } from './message.store';
import { MessageErrorCode, MessageException } from './messages.exception';
import { SendableOutbound, SendTargetStore } from './send-target.store';

export type { ProviderStatus } from '../provider/whatsapp-webhook';
export type { StatusMove } from './message.store';

/** A provider status named one of our messages before the message was stored (see applyStatuses). */
export class StatusBeforeMessageError extends Error {
  constructor(readonly reference: string) {
    super(`a status arrived for message ${reference} before the message was stored`);
  }
}

const RANK: Record<MessageStatus, number> = { accepted: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

/** Whether a reported status moves a message on (statuses may arrive out of order; none goes back). */
export function advances(current: MessageStatus, next: MessageStatus): boolean {
  if (current === next || current === 'failed') return false;
  if (next === 'failed') return current !== 'read';
  return RANK[next] > RANK[current];
}

/** What a send needs besides the outbound: to whom, which values, and what it belongs to. */
export interface SendRequest {
  messageId: string;
  phone: string;
  values: Record<string, string>;
  accountId?: string | null;
  flowId?: string | null;
  campaignId?: string | null;
  /** The text the person reads (chat sends keep the template's text on the message). */
  text?: string | null;
}

/** An agent's free-form text into a chat (inside the provider's session window). */
export interface ChatText {
  messageId: string;
  tenantId: string;
  lineId: string;
  linePhone: string;
  phone: string;
  text: string;
  providerMessageId: string;
  /** When it was sent (the chat activity's time). */
  at: Date;
}

/** A user's message to a line, as a provider webhook reported it. */
export interface ReceivedMessage {
  line: { id: string; tenantId: string; phone: string };
  from: string;
  text: string;
  providerMessageId: string;
}

/**
 * The messages: the one owner of every message written (API sends, chat and campaign sends,
 * inbound messages), through MessageStore, and of the delivery statuses the provider reports for
 * them (sent, delivered, read, failed).
 */
@Injectable()
export class MessagesService {
  constructor(
    @InjectRepository(MessageEntity) private readonly messages: Repository<MessageEntity>,
    private readonly outbounds: OutboundsService,
    private readonly targets: SendTargetStore,
    private readonly store: MessageStore,
    private readonly provider: MessagingProvider,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
  ) {}

  /**
   * An API send, built for throughput: one statement reads the outbound and the tenant's
   * credentials (opened once per sealed text), the provider is called over a kept-alive
   * connection, and one statement, shared with the concurrent sends, stores the message with its
   * `engagement.message.sent` event.
   */
  async send(caller: Caller, dto: SendOutboundDto, values: Record<string, string>): Promise<MessageEntity> {
    const { outbound, credentials } = await this.targets.find(caller.tenantId, dto.outbound_id);
    const errors = sendRuleErrors(outbound, dto.flow_id, values);
    if (errors.length) throw new ValidationFailedException(errors);
    if (!credentials) throw providerNotConfigured();
    const request: SendRequest = {
      messageId: newId('MSG'),
      phone: joinPhone(dto.phone_country_code, dto.phone_number),
      values,
      accountId: dto.account_id,
      flowId: dto.flow_id,
    };
    const providerId = await viaProvider(() => this.callProvider(credentials, outbound, request));
    const { message, event } = this.sent(outbound, request, providerId);
    await this.store.save({ message, event: this.outbox.row(event) });
    return message;
  }

  /** The provider call of a send; `request.messageId` comes back in the message's status webhooks. */
  callProvider(creds: ProviderCredentials, outbound: SendableOutbound, request: SendRequest): Promise<string> {
    return this.provider.sendTemplate(
      creds,
      outbound.lineId,
      request.phone.slice(1),
      this.outbounds.definition(outbound),
      request.values,
      request.messageId,
    );
  }

  /** Stores a message the provider accepted, with its `engagement.message.sent` event, in the caller's transaction. */
  async recordSent(
    m: EntityManager,
    outbound: SendableOutbound,
    r: SendRequest,
    providerId: string,
  ): Promise<MessageEntity> {
    const { message, event } = this.sent(outbound, r, providerId);
    await this.store.insert([{ message, event: this.outbox.row(event) }], m);
    return message;
  }

  /** Stores an agent's free-form chat text the provider accepted (no event), in the caller's transaction. */
  async recordChatText(m: EntityManager, t: ChatText): Promise<MessageEntity> {
    const now = t.at;
    const message = Object.assign(new MessageEntity(), {
      id: t.messageId,
      tenantId: t.tenantId,
      direction: 'outbound',
      lineId: t.lineId,
      linePhone: t.linePhone,
      phone: t.phone,
      accountId: null,
      outboundId: null,
      flowId: null,
      campaignId: null,
      text: t.text,
      values: null,
      status: 'accepted',
      error: null,
      providerMessageId: t.providerMessageId,
      createdAt: now,
      updatedAt: now,
    } satisfies MessageEntity);
    await this.store.insert([{ message }], m);
    return message;
  }

  /**
   * Stores a user's message to a line with its `engagement.message.received` event, in the caller's
   * (the webhook's inbox) transaction. Each webhook is processed once (inbox); a message
   * redelivered in another webhook is already stored: null.
   */
  async recordReceived(m: EntityManager, r: ReceivedMessage): Promise<MessageEntity | null> {
    if (await this.store.knowsProviderId(m, r.providerMessageId)) return null;
    const now = this.clock.now();
    const message = Object.assign(new MessageEntity(), {
      id: newId('MSG'),
      tenantId: r.line.tenantId,
      direction: 'inbound',
      lineId: r.line.id,
      linePhone: r.line.phone,
      phone: e164(r.from),
      accountId: null,
      outboundId: null,
      flowId: null,
      campaignId: null,
      text: r.text,
      values: null,
      status: 'delivered',
      error: null,
      providerMessageId: r.providerMessageId,
      createdAt: now,
      updatedAt: now,
    } satisfies MessageEntity);
    const event: OutgoingEvent<MessageReceivedEvent> = {
      topic: TOPICS.engagementMessageReceived,
      type: ENGAGEMENT_EVENT_TYPES.messageReceived,
      tenantId: message.tenantId,
      aggregateId: message.id,
      payload: {
        message_id: message.id,
        line: r.line.phone,
        phone: message.phone,
        text: r.text,
        provider_message_id: r.providerMessageId,
      },
    };
    await this.store.insert([{ message, event: this.outbox.row(event) }], m);
    return message;
  }

  /** A message the provider accepted, and its `engagement.message.sent` event. */
  private sent(
    outbound: SendableOutbound,
    r: SendRequest,
    providerId: string,
  ): { message: MessageEntity; event: OutgoingEvent<MessageSentEvent> } {
    const now = this.clock.now();
    const message = this.messages.create({
      id: r.messageId,
      tenantId: outbound.tenantId,
      direction: 'outbound',
      lineId: outbound.lineId,
      linePhone: outbound.linePhone,
      phone: r.phone,
      accountId: r.accountId ?? null,
      outboundId: outbound.id,
      flowId: r.flowId ?? null,
      campaignId: r.campaignId ?? null,
      text: r.text ?? null,
      values: r.values,
      status: 'accepted',
      error: null,
      providerMessageId: providerId,
      createdAt: now,
      updatedAt: now,
    });
    const event = {
      topic: TOPICS.engagementMessageSent,
      type: ENGAGEMENT_EVENT_TYPES.messageSent,
      tenantId: outbound.tenantId,
      aggregateId: message.id,
      payload: {
        message_id: message.id,
        outbound_id: outbound.id,
        line: outbound.linePhone,
        phone: message.phone,
        provider_message_id: providerId,
        ...(message.accountId ? { account_id: message.accountId } : {}),
        ...(message.flowId ? { flow_id: message.flowId } : {}),
        ...(message.campaignId ? { campaign_id: message.campaignId } : {}),
      } satisfies MessageSentEvent,
    };
    return { message, event };
  }

  async get(caller: Caller, id: string): Promise<MessageEntity> {
    const message = await this.store.findOne(caller.tenantId, id);
    if (!message) throw new MessageException(MessageErrorCode.MessageNotFound, `message ${id} not found`);
    return message;
  }

  /**
   * Delivery statuses from the provider (one webhook's, in order), each matched by our reference
   * (biz_opaque_callback_data) or the provider's message id among the messages of `tenantId`, the
   * tenant owning the business account whose app secret signed the webhook (a status naming another
   * tenant's message matches nothing). Their messages are read with one
   * statement and locked in id order (concurrent webhooks about the same message apply one after
   * the other, none going back), changed with one statement, and their status-changed events
   * written with one insert. Answers each move, as the message right after it.
   *
   * A status may arrive before its message is committed (the provider answers the send, then
   * reports it, while the send's write is still on its way). With `waitForReferenced`, a status
   * naming one of our messages (`MSG…`) that is not stored yet throws StatusBeforeMessageError, so
   * the caller applies the webhook again a moment later; without it, such a status is dropped.
   */
  async applyStatuses(
    m: EntityManager,
    tenantId: string,
    statuses: ProviderStatus[],
    options: { waitForReferenced?: boolean } = {},
  ): Promise<StatusMove[]> {
    const known = statuses.filter((s) => s.status.toLowerCase() in RANK);
    if (!known.length) return [];
    const rows = await this.store.lockForStatuses(
      m,
      tenantId,
      known.flatMap((s) => (s.reference ? [s.reference] : [])),
      known.map((s) => s.providerMessageId),
    );
    const byId = new Map<string, StatusMove>();
    const byProviderId = new Map<string, StatusMove>();
    for (const message of rows) {
      byId.set(message.id, message);
      if (message.providerMessageId) byProviderId.set(message.providerMessageId, message);
    }
    const moves: StatusMove[] = [];
    const events: OutgoingEvent<MessageStatusChangedEvent>[] = [];
    for (const s of known) {
      const status = s.status.toLowerCase() as MessageStatus;
      const message = (s.reference ? byId.get(s.reference) : undefined) ?? byProviderId.get(s.providerMessageId);
      if (!message && options.waitForReferenced && s.reference?.startsWith('MSG'))
        throw new StatusBeforeMessageError(s.reference);
      if (!message || !advances(message.status, status)) continue;
      const previous = message.status;
      message.status = status;
      message.error = s.error ?? message.error;
      message.updatedAt = this.clock.now();
      moves.push({ ...message });
      events.push({
        topic: TOPICS.engagementMessageStatusChanged,
        type: ENGAGEMENT_EVENT_TYPES.messageStatusChanged,
        tenantId: message.tenantId,
        aggregateId: message.id,
        payload: {
          message_id: message.id,
          status,
          previous_status: previous,
          ...(s.error ? { error: s.error } : {}),
        } satisfies MessageStatusChangedEvent,
      });
    }
    if (!moves.length) return [];
    const changed = [...new Map(moves.map((x) => [x.id, byId.get(x.id)!])).values()];
    await this.store.moveStatuses(m, changed, events);
    return moves;
  }

  /** A message of the tenant by the provider's id (ids in webhooks come from outside: never looked up across tenants). */
  findByProviderId(m: EntityManager, tenantId: string, providerMessageId: string) {
    return this.store.findByProviderId(m, tenantId, providerMessageId);
  }
}

/** The send rules of spec 2 that depend on the outbound: the flow, and one value per variable. */
export function sendRuleErrors(
  outbound: Pick<SendableOutbound, 'isNotification' | 'variables'>,
  flowId: string | undefined,
  values: Record<string, string>,
): FieldError[] {
  const errors: FieldError[] = [];
  if (!outbound.isNotification && !flowId)
    errors.push({
      field: 'flow_id',
      message: 'flow_id is required: this outbound starts a flow (is_notification false)',
    });
  if (outbound.isNotification && flowId)
    errors.push({ field: 'flow_id', message: 'a notification outbound cannot be tied to a flow' });
  for (const name of outbound.variables)
    if (values[name] === undefined || values[name] === '')
      errors.push({ field: `var.${name}`, message: `a value for {{.${name}}} is required` });
  for (const name of Object.keys(values))
    if (!outbound.variables.includes(name))
      errors.push({ field: `var.${name}`, message: `${name} is not a variable of this outbound` });
  if (outbound.variables.includes('code') && (values.code ?? '').length > CODE_VALUE_MAX)
    errors.push({ field: 'var.code', message: `the code is at most ${CODE_VALUE_MAX} characters` });
  return errors;
}
