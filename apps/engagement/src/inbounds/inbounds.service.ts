import { ENGAGEMENT_EVENT_TYPES, FlowStartedEvent, TOPICS } from '@kyc/contracts';
import { Caller, Clock, OutboxService, Page, paginate, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, QueryFailedError, Repository } from 'typeorm';

import { EngagementConfig } from '../config/engagement.config';
import { LineEntity } from '../lines/line.entity';
import { LinesService } from '../lines/lines.service';
import { MessageEntity } from '../messages/message.entity';
import { e164, newId } from '../shared/phones';
import { FinishSessionDto } from './dto/finish-session.dto';
import { SaveInboundDto } from './dto/save-inbound.dto';
import { InboundEntity, SessionEntity } from './inbound.entity';
import { InboundErrorCode, InboundException } from './inbounds.exception';

const PAGE_SIZE = 20;

/** The messaging-app deep link of an activation: `{msgapp_link_url}/<phone digits>?text=<URL-encoded text, space as %20>`. */
export function activationLink(base: string, linePhone: string, text: string): string {
  return `${base.replace(/\/$/, '')}/${linePhone.replace(/\D/g, '')}?text=${encodeURIComponent(text)}`;
}

/** Inbound flows (activation messages per line), user messages and the flows they start, sessions. */
@Injectable()
export class InboundsService {
  constructor(
    @InjectRepository(InboundEntity) private readonly inbounds: Repository<InboundEntity>,
    @InjectRepository(SessionEntity) private readonly sessions: Repository<SessionEntity>,
    private readonly lines: LinesService,
    private readonly outbox: OutboxService,
    private readonly config: EngagementConfig,
    private readonly clock: Clock,
  ) {}

  async create(caller: Caller, dto: SaveInboundDto): Promise<InboundEntity> {
    const line = await this.line(caller, dto);
    const now = this.clock.now();
    const inbound = this.inbounds.create({
      id: newId('IBF'),
      tenantId: caller.tenantId,
      flowId: dto.flow_id,
      activationMessage: dto.activation_message,
      linePhone: line.phone,
      activationLink: activationLink(this.config.ENGAGEMENT_MSGAPP_LINK_URL, line.phone, dto.activation_message),
      createdAt: now,
      updatedAt: now,
    });
    return this.store(inbound);
  }

  /** Updates an inbound; its activation link is generated again from the new values. */
  async update(caller: Caller, id: string, dto: SaveInboundDto): Promise<InboundEntity> {
    const inbound = await this.get(caller, id);
    const line = await this.line(caller, dto);
    Object.assign(inbound, {
      flowId: dto.flow_id,
      activationMessage: dto.activation_message,
      linePhone: line.phone,
      activationLink: activationLink(this.config.ENGAGEMENT_MSGAPP_LINK_URL, line.phone, dto.activation_message),
      updatedAt: this.clock.now(),
    });
    return this.store(inbound);
  }

  async get(caller: Caller, id: string): Promise<InboundEntity> {
    const inbound = await this.inbounds.findOneBy({ id, tenantId: caller.tenantId });
    if (!inbound) throw new InboundException(InboundErrorCode.InboundNotFound, `inbound flow ${id} not found`);
    return inbound;
  }

  list(caller: Caller, startKey?: string): Promise<Page<InboundEntity>> {
    const qb = this.inbounds.createQueryBuilder('i').where('i.tenantId = :tenant', { tenant: caller.tenantId });
    return paginate(qb, { startKey, limit: PAGE_SIZE });
  }

  async remove(caller: Caller, id: string): Promise<void> {
    const inbound = await this.get(caller, id);
    await this.inbounds.delete({ id: inbound.id, tenantId: caller.tenantId });
  }

  async finishSession(caller: Caller, dto: FinishSessionDto): Promise<SessionEntity> {
    const session = await this.sessions.findOneBy({
      tenantId: caller.tenantId,
      linePhone: e164(dto.waba_phone_number),
      phone: e164(dto.phone_number),
      status: 'open',
    });
    if (!session)
      throw new InboundException(InboundErrorCode.SessionNotFound, 'no open session of this user on this line');
    session.status = 'finished';
    session.finishedAt = this.clock.now();
    return this.sessions.save(session);
  }

  /**
   * A user's message to a line, just stored (MessagesService.recordReceived): equal to an
   * activation message of the line, or a reply to a flow-starting outbound (`contextProviderId`,
   * the provider id of the message the user answered), it starts that flow
   * (`engagement.flow.started`, and an open session). Runs in the webhook's inbox transaction.
   */
  async onUserMessage(m: EntityManager, message: MessageEntity, contextProviderId?: string): Promise<void> {
    const { tenantId, linePhone: line, phone } = message;
    const inbound = await m.findOneBy(InboundEntity, {
      tenantId,
      linePhone: line,
      activationMessage: (message.text ?? '').trim(),
    });
    if (inbound) return this.startFlow(m, { tenantId, line, phone, flowId: inbound.flowId, inboundId: inbound.id });
    if (contextProviderId) {
      const answered = await m.findOneBy(MessageEntity, { tenantId, providerMessageId: contextProviderId });
      if (answered?.flowId)
        return this.startFlow(m, { tenantId, line, phone, flowId: answered.flowId, messageId: answered.id });
    }
  }

  private async startFlow(
    m: EntityManager,
    f: { tenantId: string; line: string; phone: string; flowId: string; inboundId?: string; messageId?: string },
  ) {
    const now = this.clock.now();
    await m.update(
      SessionEntity,
      { tenantId: f.tenantId, linePhone: f.line, phone: f.phone, status: 'open' },
      { status: 'finished', finishedAt: now },
    );
    await m.insert(SessionEntity, {
      id: newId('SES'),
      tenantId: f.tenantId,
      linePhone: f.line,
      phone: f.phone,
      flowId: f.flowId,
      inboundId: f.inboundId ?? null,
      status: 'open',
      startedAt: now,
      finishedAt: null,
    });
    await this.outbox.add(m, {
      topic: TOPICS.engagementFlowStarted,
      type: ENGAGEMENT_EVENT_TYPES.flowStarted,
      tenantId: f.tenantId,
      aggregateId: f.inboundId ?? f.messageId ?? f.flowId,
      payload: {
        inbound_flow_id: f.inboundId ?? '',
        flow_id: f.flowId,
        line: f.line,
        phone: f.phone,
        ...(f.messageId ? { message_id: f.messageId } : {}),
      } satisfies FlowStartedEvent,
    });
  }

  private async line(caller: Caller, dto: SaveInboundDto): Promise<LineEntity> {
    const line = await this.lines.find(caller.tenantId, dto.waba_phone_number);
    if (!line)
      throw new ValidationFailedException([{ field: 'waba_phone_number', message: 'not a line of this account' }]);
    return line;
  }

  private async store(inbound: InboundEntity): Promise<InboundEntity> {
    try {
      return await this.inbounds.save(inbound);
    } catch (err) {
      if (err instanceof QueryFailedError && (err as unknown as { code?: string }).code === '23505')
        throw new InboundException(
          InboundErrorCode.ActivationMessageTaken,
          'another inbound flow of this line has this activation message',
          [{ field: 'activation_message', message: 'must be unique per line' }],
        );
      throw err;
    }
  }
}
