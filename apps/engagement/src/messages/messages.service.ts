import {
  ENGAGEMENT_EVENT_TYPES,
  MessageSentEvent,
  MessageStatus,
  MessageStatusChangedEvent,
  TOPICS,
} from '@kyc/contracts';
import { Caller, Clock, FieldError, OutboxService, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { CredentialsService, viaProvider } from '../credentials/credentials.service';
import { LinesService } from '../lines/lines.service';
import { CODE_VALUE_MAX } from '../outbounds/dto/outbound-rules';
import { OutboundEntity } from '../outbounds/outbound.entity';
import { OutboundsService } from '../outbounds/outbounds.service';
import { MessagingProvider, ProviderCredentials } from '../provider/messaging-provider';
import { joinPhone, newId } from '../shared/phones';
import { SendOutboundDto } from './dto/send-outbound.dto';
import { MessageEntity } from './message.entity';
import { MessageErrorCode, MessageException } from './messages.exception';

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
}

/**
 * Sends of approved outbounds through the provider, and the delivery statuses the provider reports
 * for them (sent, delivered, read, failed).
 */
@Injectable()
export class MessagesService {
  constructor(
    @InjectRepository(MessageEntity) private readonly messages: Repository<MessageEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbounds: OutboundsService,
    private readonly lines: LinesService,
    private readonly credentials: CredentialsService,
    private readonly provider: MessagingProvider,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
  ) {}

  async send(caller: Caller, dto: SendOutboundDto, values: Record<string, string>): Promise<MessageEntity> {
    const outbound = await this.outbounds.sendable(caller.tenantId, dto.outbound_id);
    const errors = sendRuleErrors(outbound, dto.flow_id, values);
    if (errors.length) throw new ValidationFailedException(errors);
    const creds = await this.credentials.open(caller.tenantId);
    const request: SendRequest = {
      messageId: newId('MSG'),
      phone: joinPhone(dto.phone_country_code, dto.phone_number),
      values,
      accountId: dto.account_id,
      flowId: dto.flow_id,
    };
    const providerId = await viaProvider(() => this.callProvider(creds, outbound, request));
    return this.dataSource.transaction((m) => this.recordSent(m, outbound, request, providerId));
  }

  /** The provider call of a send; `request.messageId` comes back in the message's status webhooks. */
  callProvider(creds: ProviderCredentials, outbound: OutboundEntity, request: SendRequest): Promise<string> {
    return this.provider.sendTemplate(
      creds,
      outbound.lineId,
      request.phone.slice(1),
      this.outbounds.definition(outbound),
      request.values,
      request.messageId,
    );
  }

  /** Stores a message the provider accepted, with its `engagement.message.sent` event. */
  async recordSent(
    m: EntityManager,
    outbound: OutboundEntity,
    r: SendRequest,
    providerId: string,
  ): Promise<MessageEntity> {
    const now = this.clock.now();
    const message = m.create(MessageEntity, {
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
      text: null,
      values: r.values,
      status: 'accepted',
      error: null,
      providerMessageId: providerId,
      createdAt: now,
      updatedAt: now,
    });
    await m.insert(MessageEntity, message);
    await this.outbox.add(m, {
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
    });
    return message;
  }

  async get(caller: Caller, id: string): Promise<MessageEntity> {
    const message = await this.messages.findOneBy({ id, tenantId: caller.tenantId });
    if (!message) throw new MessageException(MessageErrorCode.MessageNotFound, `message ${id} not found`);
    return message;
  }

  /**
   * A delivery status from the provider, matched by our reference (biz_opaque_callback_data) or the
   * provider's message id. Answers the message when its status moved.
   */
  async applyStatus(
    m: EntityManager,
    s: { providerMessageId: string; reference?: string; status: string; error?: string },
  ): Promise<MessageEntity | null> {
    const status = s.status.toLowerCase() as MessageStatus;
    if (!(status in RANK)) return null;
    // Locked: two webhooks reporting statuses of one message at once (delivered, read) must not
    // both advance from the same old status, the later commit taking it back.
    const lock = { mode: 'pessimistic_write' } as const;
    const message =
      (s.reference ? await m.findOne(MessageEntity, { where: { id: s.reference }, lock }) : null) ??
      (await m.findOne(MessageEntity, { where: { providerMessageId: s.providerMessageId }, lock }));
    if (!message || !advances(message.status, status)) return null;
    const previous = message.status;
    message.status = status;
    message.error = s.error ?? message.error;
    message.updatedAt = this.clock.now();
    await m.update(MessageEntity, { id: message.id }, { status, error: message.error, updatedAt: message.updatedAt });
    await this.outbox.add(m, {
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
    return message;
  }

  findByProviderId(m: EntityManager, providerMessageId: string) {
    return m.findOneBy(MessageEntity, { providerMessageId });
  }
}

/** The send rules of spec 2 that depend on the outbound: the flow, and one value per variable. */
export function sendRuleErrors(
  outbound: OutboundEntity,
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
