import { createHash } from 'node:crypto';

import { Clock, InboxService, Job, JobQueueService, writeQuery } from '@kyc/platform';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

import { CampaignsService } from '../campaigns/campaigns.service';
import { ChatsService } from '../chats/chats.service';
import { EngagementConfig } from '../config/engagement.config';
import { CredentialsService } from '../credentials/credentials.service';
import { InboundsService } from '../inbounds/inbounds.service';
import { LinesService } from '../lines/lines.service';
import { MessagesService, ProviderStatus, StatusBeforeMessageError } from '../messages/messages.service';
import { OutboundsService } from '../outbounds/outbounds.service';
import { WebhookEventEntity } from './webhook-event.entity';
import { validSignature } from './webhook-signature';
import { WebhookErrorCode, WebhookException } from './webhooks.exception';

export const WEBHOOK_QUEUE = 'whatsapp-webhook';
const INBOX_CONSUMER = 'whatsapp-webhook';
/** Runs of a webhook job whose statuses name messages not stored yet (the queue's backoff between them). */
const STATUS_WAIT_RUNS = 4;

interface WebhookJob {
  digest: string;
  body: WhatsAppWebhook;
}

/** The parts of a WhatsApp Cloud API webhook the service reads (anything may be missing). */
interface WaStatus {
  id?: string;
  status?: string;
  biz_opaque_callback_data?: string;
  errors?: { code?: number; title?: string }[];
}
interface WaMessage {
  from?: string;
  id?: string;
  text?: { body?: string };
  button?: { text?: string };
  interactive?: { button_reply?: { title?: string } };
  context?: { id?: string };
}
interface WaChangeValue {
  metadata?: { phone_number_id?: string };
  statuses?: WaStatus[];
  messages?: WaMessage[];
  contacts?: { wa_id?: string; profile?: { name?: string } }[];
  event?: string;
  reason?: string;
  message_template_name?: string;
  new_quality_score?: string;
}
interface WhatsAppWebhook {
  object?: string;
  entry?: { id?: string; changes?: { field?: string; value?: WaChangeValue }[] }[];
}

/**
 * Provider webhooks (POST /v1/msg/whatsapp/statuses): verified (X-Hub-Signature-256 over the raw
 * body with the app secret of every WABA the body names), acknowledged at once and processed off
 * the request by a durable job, exactly once (inbox keyed by the body's SHA-256: a redelivered
 * webhook is skipped). GET answers the provider's verification handshake.
 */
@Injectable()
export class WebhooksService implements OnApplicationBootstrap {
  private readonly logger = new Logger('webhooks');
  /** A received webhook ($1 digest, $2 time) and its job ($3, a JSON array of one JobRow). */
  private readonly receiveSql: string;

  constructor(
    private readonly credentials: CredentialsService,
    private readonly jobs: JobQueueService,
    private readonly inbox: InboxService,
    private readonly lines: LinesService,
    private readonly messages: MessagesService,
    private readonly outbounds: OutboundsService,
    private readonly inbounds: InboundsService,
    private readonly campaigns: CampaignsService,
    private readonly chats: ChatsService,
    private readonly config: EngagementConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.receiveSql = `WITH evt AS (
       INSERT INTO webhook_events (digest, received_at, processed_at) VALUES ($1, $2, NULL) ON CONFLICT DO NOTHING
     )
     ${jobs.insertSql('$3')}`;
  }

  onApplicationBootstrap(): void {
    if (!this.config.ENGAGEMENT_WORKER_ENABLED) return;
    this.jobs.register<WebhookJob>(WEBHOOK_QUEUE, (job) => this.process(job), {
      concurrency: 8,
      lockMs: this.config.ENGAGEMENT_WORKER_LOCK_MS,
    });
  }

  async verify(provider: string, mode?: string, token?: string, challenge?: string): Promise<string> {
    this.assertProvider(provider);
    if (mode !== 'subscribe' || !token || challenge === undefined || !(await this.credentials.knowsVerifyToken(token)))
      throw new WebhookException(WebhookErrorCode.VerificationFailed, 'verification failed: unknown verify token');
    return challenge;
  }

  async receive(provider: string, raw: Buffer | undefined, signature: string | undefined): Promise<{ received: true }> {
    this.assertProvider(provider);
    let body: WhatsAppWebhook;
    try {
      body = JSON.parse((raw ?? Buffer.alloc(0)).toString('utf8')) as WhatsAppWebhook;
    } catch {
      throw new WebhookException(WebhookErrorCode.InvalidBody, 'the webhook body must be JSON');
    }
    const wabaIds = [...new Set((Array.isArray(body?.entry) ? body.entry : []).map((e) => String(e?.id ?? '')))];
    if (!wabaIds.length || wabaIds.includes(''))
      throw new WebhookException(WebhookErrorCode.InvalidBody, 'the webhook has no entry with a business account id');
    for (const wabaId of wabaIds) {
      const owner = await this.credentials.byWaba(wabaId);
      if (!owner || !validSignature(raw!, signature, owner.credentials.appSecret))
        throw new WebhookException(
          WebhookErrorCode.InvalidSignature,
          'the X-Hub-Signature-256 signature is missing or invalid',
        );
    }
    const digest = createHash('sha256').update(raw!).digest('hex');
    // Recorded with its job, by one statement: until it is processed, campaigns do not re-send an
    // in-doubt claim it may confirm. A redelivered webhook adds neither (same digest, same dedupe key).
    const job = this.jobs.row<WebhookJob>(
      WEBHOOK_QUEUE,
      { digest, body },
      { dedupeKey: `wa:${digest}`, maxAttempts: 20 },
    );
    await writeQuery(this.dataSource, this.receiveSql, [digest, this.clock.now(), JSON.stringify([job])]);
    return { received: true };
  }

  private async process(job: Job<WebhookJob>): Promise<void> {
    const { digest, body } = job.payload;
    // A status that came before its message makes this run fail and the queue run the job again later
    // (1 s, 2 s, 4 s: no worker waits meanwhile); the last run applies the rest and drops what is unknown.
    const waitForMessages = job.attempt < STATUS_WAIT_RUNS;
    await this.inbox.handle(
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
        await this.apply(m, body, waitForMessages);
        await m.update(WebhookEventEntity, { digest }, { processedAt: this.clock.now() });
      },
      { passThrough: (err) => err instanceof StatusBeforeMessageError },
    );
  }

  private async apply(m: EntityManager, body: WhatsAppWebhook, waitForMessages: boolean): Promise<void> {
    for (const entry of body.entry ?? []) {
      const wabaId = String(entry.id);
      // Every read in the inbox transaction goes through its manager: a second pool connection per
      // transaction can exhaust the pool while row locks are held (an undetected deadlock).
      const owner = await this.credentials.byWaba(wabaId, m);
      if (!owner) continue;
      // Everything an entry names (message, campaign and template ids) is looked up within the
      // tenant owning the business account whose app secret signed the webhook, never across tenants.
      const tenantId = owner.tenantId;
      for (const change of entry.changes ?? []) {
        const value: WaChangeValue = change.value ?? {};
        switch (change.field) {
          case 'messages':
            await this.applyStatuses(m, tenantId, value.statuses ?? [], waitForMessages);
            for (const msg of value.messages ?? []) {
              const line = await this.lines.byId(String(value.metadata?.phone_number_id), m);
              if (!line || line.tenantId !== tenantId) continue;
              const text = msg.text?.body ?? msg.button?.text ?? msg.interactive?.button_reply?.title ?? '';
              await this.inbounds.receive(m, {
                line,
                from: String(msg.from),
                text: String(text),
                providerMessageId: String(msg.id),
                contextProviderId: msg.context?.id,
              });
              // The message joins its conversation's chat (or opens one) in the agent workspace.
              const message = await this.messages.findByProviderId(m, tenantId, String(msg.id));
              if (message?.direction === 'inbound')
                await this.chats.onUserMessage(m, {
                  line,
                  message,
                  contactName: value.contacts?.find((c) => c.wa_id === msg.from)?.profile?.name,
                });
            }
            break;
          case 'message_template_status_update':
            await this.outbounds.applyProviderStatus(
              m,
              { tenantId, wabaId },
              String(value.message_template_name),
              String(value.event),
              value.reason,
            );
            break;
          case 'message_template_quality_update':
            await this.outbounds.applyQuality(
              m,
              { tenantId, wabaId },
              String(value.message_template_name),
              String(value.new_quality_score),
            );
            break;
          default:
            this.logger.debug({ msg: 'webhook change ignored', field: change.field });
        }
      }
    }
  }

  /**
   * A webhook's statuses (of the tenant's business account), in reference order as they arrived:
   * campaigns confirm the claims they name, then the messages move (both read and lock their rows in id order, so concurrent
   * webhooks never deadlock), then the chats of the moved messages follow.
   */
  private async applyStatuses(m: EntityManager, tenantId: string, statuses: WaStatus[], waitForMessages: boolean) {
    const key = (s: WaStatus) => String(s.biz_opaque_callback_data ?? s.id);
    const reported: ProviderStatus[] = [...statuses]
      .sort((a, b) => key(a).localeCompare(key(b)))
      .map((s) => {
        const error = s.errors?.[0];
        return {
          providerMessageId: String(s.id),
          reference: typeof s.biz_opaque_callback_data === 'string' ? s.biz_opaque_callback_data : undefined,
          status: String(s.status),
          error: error ? `${error.code} ${error.title}` : undefined,
        };
      });
    await this.campaigns.confirmFromStatuses(
      m,
      tenantId,
      reported.flatMap((s) => (s.reference ? [{ ...s, reference: s.reference }] : [])),
    );
    const moves = await this.messages.applyStatuses(m, tenantId, reported, { waitForReferenced: waitForMessages });
    await this.chats.onMessageStatuses(m, moves);
  }

  private assertProvider(provider: string) {
    if (provider !== 'whatsapp')
      throw new WebhookException(WebhookErrorCode.UnknownProvider, `unknown messaging provider ${provider}`);
  }
}
