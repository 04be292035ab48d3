import type { Server } from 'node:http';

import { Caller, Clock, FieldError, Job, JobQueueService, ValidationFailedException } from '@kyc/platform';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { EngagementConfig } from '../config/engagement.config';
import { CredentialsService } from '../credentials/credentials.service';
import { varValuesOf } from '../messages/dto/var-values.decorator';
import { MessagesService, sendRuleErrors } from '../messages/messages.service';
import { OutboundEntity } from '../outbounds/outbound.entity';
import { OutboundsService } from '../outbounds/outbounds.service';
import { ProviderCredentials, ProviderError } from '../provider/messaging-provider';
import { joinPhone, newId } from '../shared/phones';
import { CampaignEntity, CampaignRecipientEntity } from './campaign.entity';
import { CampaignProgress } from './campaign.presenter';
import { CampaignStore } from './campaign.store';
import { CampaignErrorCode, CampaignException } from './campaigns.exception';
import { CreateCampaignDto } from './dto/create-campaign.dto';

export const CAMPAIGN_QUEUE = 'campaign-tick';
const INSERT_CHUNK = 1_000;
/** A received webhook unprocessed for this many reconciliation windows no longer blocks re-sends. */
const STUCK_WEBHOOK_WINDOWS = 10;

interface TickPayload {
  campaignId: string;
  tick: number;
}

interface ClaimedRecipient {
  seq: number;
  phone: string;
  account_id: string | null;
  values: Record<string, string>;
  message_id: string;
}

/**
 * Campaigns: an approved outbound sent to a list of recipients by durable jobs, one tick a second,
 * each tick sending `rate` recipients.
 *
 * Exactly once across crashes: a tick claims recipients (pending → sending, each with its message
 * id) and commits before calling the provider; the message id travels as the provider's
 * `biz_opaque_callback_data`. After the call the message and `sent` commit together. A process
 * that dies between the two leaves `sending` rows: the provider's status webhook for that message
 * id confirms them (sent, nothing resent; the provider retries webhooks while the service is down),
 * and only a claim without any confirmation for ENGAGEMENT_CAMPAIGN_UNCONFIRMED_MS of a process's
 * uptime goes back to pending (the provider never accepted it). A dead tick job is taken over when its
 * lock expires. So nobody is skipped and nobody gets the message twice.
 */
@Injectable()
export class CampaignsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('campaigns');
  /**
   * Since when this process can receive webhooks (its HTTP server listening, by the service clock;
   * null before): the reconciliation window of in-doubt claims counts from then, not from the
   * process start (a slow boot, e.g. joining Kafka, must not use the window up before any
   * retried status webhook could arrive).
   */
  private receivingSince: Date | null = null;

  constructor(
    private readonly campaignStore: CampaignStore,
    @InjectRepository(CampaignEntity) private readonly campaigns: Repository<CampaignEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbounds: OutboundsService,
    private readonly messages: MessagesService,
    private readonly credentials: CredentialsService,
    private readonly jobs: JobQueueService,
    private readonly config: EngagementConfig,
    private readonly clock: Clock,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.ENGAGEMENT_WORKER_ENABLED) return;
    this.jobs.register<TickPayload>(CAMPAIGN_QUEUE, (job) => this.tick(job), {
      concurrency: 4,
      lockMs: this.config.ENGAGEMENT_WORKER_LOCK_MS,
      backoffMs: () => 1_000,
    });
  }

  async create(caller: Caller, dto: CreateCampaignDto): Promise<CampaignEntity> {
    const outbound = await this.outbounds.sendable(caller.tenantId, dto.outbound_id);
    const errors: FieldError[] = [];
    const recipients = dto.recipients.map((r, i) => {
      let values: Record<string, string> = {};
      try {
        values = varValuesOf({ var: r.var ?? {} });
      } catch (err) {
        if (!(err instanceof ValidationFailedException)) throw err;
        errors.push(...err.fields.map((f) => ({ field: `recipients.${i}.${f.field}`, message: f.message })));
      }
      for (const e of sendRuleErrors(outbound, dto.flow_id, values))
        if (e.field !== 'flow_id') errors.push({ field: `recipients.${i}.${e.field}`, message: e.message });
      return { phone: joinPhone(r.phone_country_code, r.phone_number), accountId: r.account_id ?? null, values };
    });
    errors.unshift(...sendRuleErrors(outbound, dto.flow_id, {}).filter((e) => e.field === 'flow_id'));
    if (errors.length) throw new ValidationFailedException(errors.slice(0, 100));
    await this.credentials.open(caller.tenantId);
    const campaign = this.campaigns.create({
      id: newId('CMP'),
      tenantId: caller.tenantId,
      outboundId: outbound.id,
      flowId: dto.flow_id ?? null,
      status: 'processing',
      total: recipients.length,
      rate: dto.rate ?? this.config.ENGAGEMENT_CAMPAIGN_RATE,
      createdAt: this.clock.now(),
      finishedAt: null,
    });
    await this.dataSource.transaction(async (m) => {
      await m.insert(CampaignEntity, campaign);
      for (let i = 0; i < recipients.length; i += INSERT_CHUNK)
        await m.insert(
          CampaignRecipientEntity,
          recipients.slice(i, i + INSERT_CHUNK).map((r, j) => ({
            campaignId: campaign.id,
            seq: i + j,
            tenantId: caller.tenantId,
            phone: r.phone,
            accountId: r.accountId,
            values: r.values,
            status: 'pending' as const,
            messageId: null,
            claimedAt: null,
            error: null,
          })),
        );
      await this.enqueueTick(m, campaign.id, 0, this.clock.now());
    });
    return campaign;
  }

  async get(caller: Caller, id: string): Promise<{ campaign: CampaignEntity; progress: CampaignProgress }> {
    const campaign = await this.campaigns.findOneBy({ id, tenantId: caller.tenantId });
    if (!campaign) throw new CampaignException(CampaignErrorCode.CampaignNotFound, `campaign ${id} not found`);
    return { campaign, progress: await this.progress(this.dataSource.manager, id) };
  }

  /** Stops a campaign: recipients not yet sent are not sent (counted as cancelled). */
  async cancel(caller: Caller, id: string) {
    const { campaign } = await this.get(caller, id);
    if (campaign.status !== 'processing')
      throw new CampaignException(CampaignErrorCode.CampaignFinished, `campaign ${id} is already ${campaign.status}`);
    await this.dataSource.transaction(async (m) => {
      const now = this.clock.now();
      await m.update(CampaignEntity, { id, status: 'processing' }, { status: 'cancelled', finishedAt: now });
      await m.update(CampaignRecipientEntity, { campaignId: id, status: 'pending' }, { status: 'cancelled' });
    });
    return this.get(caller, id);
  }

  /**
   * Provider statuses (in arrival order) for message ids a campaign may have claimed: a `sending`
   * recipient whose send was never recorded (the process died during the call) is confirmed by
   * the first status of its message, and its message stored now. Only the recipients of `tenantId`
   * (the tenant whose business account reported the statuses) are looked at. One read for the lot, locking
   * the recipients in message id order (concurrent webhooks lock them in the same order).
   */
  async confirmFromStatuses(
    m: EntityManager,
    tenantId: string,
    statuses: { reference: string; providerMessageId: string; status: string }[],
  ): Promise<void> {
    const references = [...new Set(statuses.map((s) => s.reference).filter((r) => r.startsWith('MSG')))];
    if (!references.length) return;
    const rows = await this.campaignStore.lockByMessage<
      { campaign_id: string; seq: number; status: string; message_id: string }[]
    >(m, [references, tenantId]);
    for (const row of rows) {
      const { providerMessageId, status } = statuses.find((s) => s.reference === row.message_id)!;
      if (row.status !== 'sending') {
        this.logger.debug({ msg: 'status for a campaign message already settled', reference: row.message_id, status });
        continue;
      }
      this.logger.debug({ msg: 'campaign message confirmed by the provider', reference: row.message_id, status });
      const recipient = await m.findOneByOrFail(CampaignRecipientEntity, { campaignId: row.campaign_id, seq: row.seq });
      const campaign = await m.findOneByOrFail(CampaignEntity, { id: row.campaign_id });
      const outbound = await m.findOneBy(OutboundEntity, { id: campaign.outboundId });
      if (!outbound) continue;
      const failed = status === 'failed';
      if (!failed)
        await this.messages.recordSent(m, outbound, this.sendRequest(campaign, recipient), providerMessageId);
      await m.update(
        CampaignRecipientEntity,
        { campaignId: row.campaign_id, seq: row.seq },
        { status: failed ? 'failed' : 'sent', error: failed ? 'provider reported failed' : null },
      );
    }
  }

  private async tick(job: Job<TickPayload>): Promise<void> {
    const { campaignId, tick } = job.payload;
    const campaign = await this.campaigns.findOneBy({ id: campaignId });
    if (!campaign || campaign.status !== 'processing') return;
    const started = this.clock.now();
    const outbound = await this.dataSource.manager.findOneBy(OutboundEntity, { id: campaign.outboundId });
    if (!outbound || outbound.status !== 'APPROVED') {
      await this.finish(campaign.id, 'cancelled', outbound ? `outbound ${outbound.status}` : 'outbound deleted');
      return;
    }
    const creds = await this.credentials.open(campaign.tenantId);
    const claimed = await this.claim(campaign, started);
    await this.sendAll(creds, campaign, outbound, claimed);
    const progress = await this.progress(this.dataSource.manager, campaign.id);
    if (progress.pending + progress.sending === 0) return this.finish(campaign.id, 'completed');
    const elapsed = this.clock.now().getTime() - started.getTime();
    await this.enqueueTick(
      null,
      campaign.id,
      tick + 1,
      new Date(this.clock.now().getTime() + Math.max(0, 1_000 - elapsed)),
    );
  }

  /**
   * Releases stale claims, then claims the next `rate` pending recipients (committed before any
   * call). A claim is stale when no status webhook confirmed it for ENGAGEMENT_CAMPAIGN_UNCONFIRMED_MS
   * while this process could receive webhooks (after a restart the provider's retried webhooks for
   * the sends of the dead process get that long to arrive first) and every webhook received so far
   * has been processed (a confirmation may be waiting in the backlog; a webhook still unprocessed
   * after STUCK_WEBHOOK_WINDOWS windows is taken as dead, so it cannot hold every campaign forever).
   */
  private async claim(campaign: CampaignEntity, now: Date): Promise<ClaimedRecipient[]> {
    const window = this.config.ENGAGEMENT_CAMPAIGN_UNCONFIRMED_MS;
    const since = this.receivingWebhooksSince(now);
    const release = since !== null && now.getTime() - since.getTime() >= window;
    return this.dataSource.transaction(async (m) => {
      if (release)
        await this.campaignStore.releaseUnconfirmed<unknown>(m, [
          campaign.id,
          new Date(now.getTime() - window),
          new Date(now.getTime() - STUCK_WEBHOOK_WINDOWS * window),
        ]);
      const [rows] = await this.campaignStore.claim<[ClaimedRecipient[], number]>(m, [campaign.id, campaign.rate, now]);
      return rows;
    });
  }

  private receivingWebhooksSince(now: Date): Date | null {
    if (!this.receivingSince) {
      const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
      if (server?.listening) this.receivingSince = now;
    }
    return this.receivingSince;
  }

  private async sendAll(
    creds: ProviderCredentials,
    campaign: CampaignEntity,
    outbound: OutboundEntity,
    claimed: ClaimedRecipient[],
  ): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < claimed.length) {
        const r = claimed[next++];
        await this.sendOne(creds, campaign, outbound, r);
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(this.config.ENGAGEMENT_CAMPAIGN_CONCURRENCY, claimed.length) }, worker),
    );
  }

  private async sendOne(
    creds: ProviderCredentials,
    campaign: CampaignEntity,
    outbound: OutboundEntity,
    r: ClaimedRecipient,
  ) {
    const request = {
      messageId: r.message_id,
      phone: r.phone,
      values: r.values,
      accountId: r.account_id,
      flowId: campaign.flowId,
      campaignId: campaign.id,
    };
    let providerId: string;
    try {
      providerId = await this.messages.callProvider(creds, outbound, request);
    } catch (err) {
      if (err instanceof ProviderError) {
        // The provider answered: nothing was sent. Refused for good → failed; throttled or down → pending again.
        await this.campaignStore.refused<unknown>(this.dataSource.manager, [
          campaign.id,
          r.seq,
          err.permanent ? 'failed' : 'pending',
          err.message.slice(0, 500),
        ]);
      } else
        this.logger.warn({
          msg: 'campaign send outcome unknown; left for confirmation',
          campaign_id: campaign.id,
          seq: r.seq,
          err: err as Error,
        });
      return;
    }
    // The provider has the message: record it (retried: a lost race with a webhook must not leave it unrecorded).
    for (let attempt = 1; ; attempt++) {
      try {
        await this.dataSource.transaction(async (m) => {
          const [row] = await this.campaignStore.lockRecipient<{ status: string }[]>(m, [campaign.id, r.seq]);
          if (row?.status !== 'sending') return; // already confirmed by the provider's webhook
          await this.messages.recordSent(m, outbound, request, providerId);
          await m.update(CampaignRecipientEntity, { campaignId: campaign.id, seq: r.seq }, { status: 'sent' });
        });
        return;
      } catch (err) {
        if (attempt >= 5) {
          this.logger.error({
            msg: 'campaign send not recorded; left for confirmation',
            campaign_id: campaign.id,
            seq: r.seq,
            err: err as Error,
          });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }

  private sendRequest(c: CampaignEntity, r: CampaignRecipientEntity) {
    return {
      messageId: r.messageId!,
      phone: r.phone,
      values: r.values,
      accountId: r.accountId,
      flowId: c.flowId,
      campaignId: c.id,
    };
  }

  private async finish(id: string, status: 'completed' | 'cancelled', reason?: string) {
    await this.dataSource.transaction(async (m) => {
      await m.update(CampaignEntity, { id, status: 'processing' }, { status, finishedAt: this.clock.now() });
      if (status === 'cancelled')
        await m.update(
          CampaignRecipientEntity,
          { campaignId: id, status: 'pending' },
          { status: 'cancelled', error: reason },
        );
    });
  }

  private enqueueTick(m: EntityManager | null, campaignId: string, tick: number, runAt: Date) {
    return this.jobs.enqueue<TickPayload>(
      m,
      CAMPAIGN_QUEUE,
      { campaignId, tick },
      {
        runAt,
        dedupeKey: `campaign:${campaignId}:${tick}`,
        maxAttempts: 1_000,
      },
    );
  }

  private async progress(m: EntityManager, id: string): Promise<CampaignProgress> {
    const rows = await this.campaignStore.progress<{ status: keyof CampaignProgress; n: number }[]>(m, [id]);
    const p: CampaignProgress = { pending: 0, sending: 0, sent: 0, failed: 0, cancelled: 0 };
    for (const r of rows) p[r.status] = r.n;
    return p;
  }
}
