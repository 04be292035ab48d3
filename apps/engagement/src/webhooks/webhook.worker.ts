import { Clock, InboxService, Job, JOB_COMPLETED, JobQueueService } from '@kyc/platform';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { CampaignsService } from '../campaigns/campaigns.service';
import { ChatsService } from '../chats/chats.service';
import { EngagementConfig } from '../config/engagement.config';
import { CredentialsService } from '../credentials/credentials.service';
import { InboundsService } from '../inbounds/inbounds.service';
import { LinesService } from '../lines/lines.service';
import { MessagesService, StatusBeforeMessageError } from '../messages/messages.service';
import { OutboundsService } from '../outbounds/outbounds.service';
import { ProviderStatus, UserMessage, webhookEntries, WhatsAppWebhook } from '../provider/whatsapp-webhook';
import { WebhookEventStore } from './webhook-event.store';

export const WEBHOOK_QUEUE = 'whatsapp-webhook';
const INBOX_CONSUMER = 'whatsapp-webhook';
/** Runs of a webhook job whose statuses name messages not stored yet (the queue's backoff between them). */
const STATUS_WAIT_RUNS = 4;

export interface WebhookJob {
  digest: string;
  body: WhatsAppWebhook;
}

/**
 * Processes received provider webhooks (WebhooksService.receive queued them), exactly once (inbox
 * keyed by the body's SHA-256: a redelivered webhook is skipped): the provider adapter reads the
 * body (provider/whatsapp-webhook.ts) and each change goes to its owner: statuses to campaigns,
 * messages and chats; a user's message to messages (stored), inbounds (flows) and chats; template
 * reviews and quality to outbounds.
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap {
  private readonly logger = new Logger('webhooks');

  constructor(
    private readonly jobs: JobQueueService,
    private readonly inbox: InboxService,
    private readonly events: WebhookEventStore,
    private readonly credentials: CredentialsService,
    private readonly lines: LinesService,
    private readonly messages: MessagesService,
    private readonly inbounds: InboundsService,
    private readonly campaigns: CampaignsService,
    private readonly chats: ChatsService,
    private readonly outbounds: OutboundsService,
    private readonly config: EngagementConfig,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.ENGAGEMENT_WORKER_ENABLED) return;
    this.jobs.register<WebhookJob>(WEBHOOK_QUEUE, (job) => this.process(job), {
      concurrency: 8,
      lockMs: this.config.ENGAGEMENT_WORKER_LOCK_MS,
      // The jobs are the rest of the webhook requests that queue them (acknowledged at once): a
      // queue yielding to those requests ran one job per poll (5 a second) while the provider's
      // deliveries kept the process busy, and its backlog grew as fast as they came.
      yields: false,
    });
  }

  /**
   * Conversations (line and user) with a webhook job of this process running or waiting: the
   * promise the next job of that conversation waits for.
   */
  private readonly conversations = new Map<string, Promise<unknown>>();

  /**
   * Runs the webhook jobs of one conversation in the order the queue hands them out (the order the
   * webhooks were received), one after the other, while jobs of other conversations run alongside:
   * a user's messages join their chat in the order they came.
   */
  private process(job: Job<WebhookJob>): Promise<void | typeof JOB_COMPLETED> {
    const keys = [
      ...new Set(
        webhookEntries(job.payload.body).flatMap(({ changes }) =>
          changes.flatMap((c) => (c.kind === 'messages' ? c.messages.map((x) => `${c.phoneNumberId}:${x.from}`) : [])),
        ),
      ),
    ];
    if (!keys.length) return this.apply(job);
    const before = keys.flatMap((k) => this.conversations.get(k) ?? []);
    const run = Promise.allSettled(before).then(() => this.apply(job));
    const settled = run.catch(() => undefined);
    for (const k of keys) this.conversations.set(k, settled);
    void settled.then(() => {
      for (const k of keys) if (this.conversations.get(k) === settled) this.conversations.delete(k);
    });
    return run;
  }

  private async apply(job: Job<WebhookJob>): Promise<void | typeof JOB_COMPLETED> {
    const { digest, body } = job.payload;
    // A status that came before its message makes this run fail and the queue run the job again later
    // (1 s, 2 s, 4 s: no worker waits meanwhile); the last run applies the rest and drops what is unknown.
    const waitForMessages = job.attempt < STATUS_WAIT_RUNS;
    const outcome = await this.inbox.handle(
      INBOX_CONSUMER,
      {
        id: `wa:${digest}`,
        type: 'whatsapp.webhook',
        version: 1,
        tenant_id: null,
        occurred_at: this.clock.now().toISOString(),
        aggregate_id: digest,
        payload: body,
      },
      async (m) => {
        await this.dispatch(m, body, waitForMessages);
        await this.events.processed(m, digest, this.clock.now());
        // The job completes with its effects (one commit); a duplicate or parked webhook's job is
        // completed by the queue.
        await this.jobs.complete(m, job);
      },
      { passThrough: (err) => err instanceof StatusBeforeMessageError },
    );
    return outcome === 'processed' ? JOB_COMPLETED : undefined;
  }

  private async dispatch(m: EntityManager, body: WhatsAppWebhook, waitForMessages: boolean): Promise<void> {
    for (const { wabaId, changes } of webhookEntries(body)) {
      // Every read in the inbox transaction goes through its manager: a second pool connection per
      // transaction can exhaust the pool while row locks are held (an undetected deadlock).
      const owner = await this.credentials.byWaba(wabaId, m);
      if (!owner) continue;
      // Everything an entry names (message, campaign and template ids) is looked up within the
      // tenant owning the business account whose app secret signed the webhook, never across tenants.
      const tenantId = owner.tenantId;
      for (const change of changes) {
        switch (change.kind) {
          case 'messages':
            await this.applyStatuses(m, tenantId, change.statuses, waitForMessages);
            for (const msg of change.messages) await this.receiveMessage(m, tenantId, change.phoneNumberId, msg);
            break;
          case 'template_status':
            await this.outbounds.applyProviderStatus(
              m,
              { tenantId, wabaId },
              change.template,
              change.event,
              change.reason,
            );
            break;
          case 'template_quality':
            await this.outbounds.applyQuality(m, { tenantId, wabaId }, change.template, change.quality);
            break;
          default:
            this.logger.debug({ msg: 'webhook change ignored', field: change.field });
        }
      }
    }
  }

  /**
   * A webhook's statuses (of the tenant's business account), in reference order as the adapter
   * gives them: campaigns confirm the claims they name, then the messages move (both read and lock
   * their rows in id order, so concurrent webhooks never deadlock), then the chats of the moved
   * messages follow.
   */
  private async applyStatuses(
    m: EntityManager,
    tenantId: string,
    reported: ProviderStatus[],
    waitForMessages: boolean,
  ): Promise<void> {
    await this.campaigns.confirmFromStatuses(
      m,
      tenantId,
      reported.flatMap((s) => (s.reference ? [{ ...s, reference: s.reference }] : [])),
    );
    const moves = await this.messages.applyStatuses(m, tenantId, reported, { waitForReferenced: waitForMessages });
    await this.chats.onMessageStatuses(m, moves);
  }

  /**
   * A user's message to one of the tenant's lines: stored (once), it may start a flow, and it joins
   * its conversation's chat (or opens one) in the agent workspace.
   */
  private async receiveMessage(m: EntityManager, tenantId: string, phoneNumberId: string, msg: UserMessage) {
    const line = await this.lines.byId(phoneNumberId, m);
    if (!line || line.tenantId !== tenantId) return;
    const received = await this.messages.recordReceived(m, {
      line,
      from: msg.from,
      text: msg.text,
      providerMessageId: msg.providerMessageId,
    });
    if (received) await this.inbounds.onUserMessage(m, received, msg.contextProviderId);
    // A message redelivered in another webhook is already stored: its chat still hears of it.
    const message = received ?? (await this.messages.findByProviderId(m, tenantId, msg.providerMessageId));
    if (message?.direction === 'inbound')
      await this.chats.onUserMessage(m, { line, message, contactName: msg.contactName });
  }
}
