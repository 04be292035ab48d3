import { Clock, Job, JobQueueService, newId, PermanentDeliveryError } from '@kyc/platform';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';

import { LinkMailer } from './channels/link-mailer';
import { LinkSmsSender } from './channels/link-sms-sender';
import { MessagingAppSender } from './channels/msgapp-sender';
import { LinkDeliveryEntity } from './link-delivery.entity';
import { linkSubject, linkText } from './link-messages';
import { WebIntegrationErrorCode, WebIntegrationException } from './web-integration.exception';

export const LINK_DELIVERY_QUEUE = 'identity.link-delivery';

interface LinkDeliveryJob {
  delivery_id: string;
}

export type NewDelivery = Omit<LinkDeliveryEntity, 'id' | 'status' | 'error' | 'messageId' | 'createdAt' | 'updatedAt'>;

/**
 * Delivers process links through their channel as durable jobs: e-mail by SMTP, SMS by the phone
 * provider, msgapp as an engagement outbound message. Temporary failures are retried by the
 * queue; a refusal marks the delivery failed with its reason.
 */
@Injectable()
export class LinkDeliveryService implements OnModuleInit {
  private readonly logger = new Logger('link-delivery');

  constructor(
    @InjectRepository(LinkDeliveryEntity) private readonly deliveries: Repository<LinkDeliveryEntity>,
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
    private readonly mailer: LinkMailer,
    private readonly sms: LinkSmsSender,
    private readonly msgapp: MessagingAppSender,
  ) {}

  onModuleInit(): void {
    this.jobs.register<LinkDeliveryJob>(LINK_DELIVERY_QUEUE, (job) => this.deliver(job), { concurrency: 4 });
  }

  /** Records the delivery and queues its job in the caller's transaction. */
  async queue(m: EntityManager, input: NewDelivery): Promise<LinkDeliveryEntity> {
    const now = this.clock.now();
    const delivery = m.create(LinkDeliveryEntity, {
      ...input,
      id: newId('LND'),
      status: 'queued',
      error: null,
      messageId: null,
      createdAt: now,
      updatedAt: now,
    });
    await m.insert(LinkDeliveryEntity, delivery);
    await this.jobs.enqueue<LinkDeliveryJob>(
      m,
      LINK_DELIVERY_QUEUE,
      { delivery_id: delivery.id },
      { tenantId: delivery.tenantId, dedupeKey: `link-delivery:${delivery.id}` },
    );
    return delivery;
  }

  async get(tenantId: string, id: string): Promise<LinkDeliveryEntity> {
    const d = await this.deliveries.findOneBy({ tenantId, id });
    if (!d) throw new WebIntegrationException(WebIntegrationErrorCode.DeliveryNotFound, `delivery ${id} not found`);
    return d;
  }

  private async deliver(job: Job<LinkDeliveryJob>): Promise<void> {
    const d = await this.deliveries.findOneBy({ id: job.payload.delivery_id });
    if (!d || d.status !== 'queued' || !d.link) return;
    let messageId: string | null = null;
    try {
      if (d.channel === 'email')
        await this.mailer.send({
          to: d.recipient,
          subject: linkSubject(d.lang),
          text: linkText(d.lang, d.link),
          messageId: `<${d.id}@identity.kyc.local>`,
        });
      else if (d.channel === 'sms')
        await this.sms.send({
          tenantId: d.tenantId,
          deliveryId: d.id,
          phoneNumber: d.recipient,
          text: linkText(d.lang, d.link),
        });
      else
        messageId = await this.msgapp.send({
          tenantId: d.tenantId,
          userId: d.userId,
          deliveryId: d.id,
          phoneNumber: d.recipient,
          outboundId: d.outboundId!,
          flowId: d.flowId,
          variables: d.variables,
          link: d.link,
        });
    } catch (err) {
      if (!(err instanceof PermanentDeliveryError)) throw err;
      this.logger.warn({ msg: 'link delivery refused', delivery_id: d.id, channel: d.channel, err: err.message });
      await this.finish(d.id, { status: 'failed', error: err.message.slice(0, 500) });
      return;
    }
    await this.finish(d.id, { status: 'sent', messageId });
  }

  /** The link carries a web key: it is not kept once the delivery is over. */
  private finish(id: string, change: Partial<LinkDeliveryEntity>) {
    return this.deliveries.update({ id }, { ...change, link: null, updatedAt: this.clock.now() });
  }
}
