import { createHash } from 'node:crypto';

import { Clock, JobQueueService } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { CredentialsService } from '../credentials/credentials.service';
import { parseWebhook, validSignature } from '../provider/whatsapp-webhook';
import { WEBHOOK_QUEUE, WebhookJob } from './webhook.worker';
import { WebhookEventStore } from './webhook-event.store';
import { WebhookErrorCode, WebhookException } from './webhooks.exception';

/**
 * Provider webhooks (POST /v1/msg/whatsapp/statuses): verified (X-Hub-Signature-256 over the raw
 * body with the app secret of every WABA the body names), acknowledged at once and processed off
 * the request by a durable job (WebhookWorker), exactly once. GET answers the provider's
 * verification handshake.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly events: WebhookEventStore,
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
  ) {}

  async verify(provider: string, mode?: string, token?: string, challenge?: string): Promise<string> {
    this.assertProvider(provider);
    if (mode !== 'subscribe' || !token || challenge === undefined || !(await this.credentials.knowsVerifyToken(token)))
      throw new WebhookException(WebhookErrorCode.VerificationFailed, 'verification failed: unknown verify token');
    return challenge;
  }

  async receive(provider: string, raw: Buffer | undefined, signature: string | undefined): Promise<{ received: true }> {
    this.assertProvider(provider);
    const parsed = parseWebhook(raw);
    if (!parsed.ok)
      throw new WebhookException(
        WebhookErrorCode.InvalidBody,
        parsed.reason === 'not_json'
          ? 'the webhook body must be JSON'
          : 'the webhook has no entry with a business account id',
      );
    for (const wabaId of parsed.wabaIds) {
      const owner = await this.credentials.byWaba(wabaId);
      if (!owner || !validSignature(raw!, signature, owner.credentials.appSecret))
        throw new WebhookException(
          WebhookErrorCode.InvalidSignature,
          'the X-Hub-Signature-256 signature is missing or invalid',
        );
    }
    const digest = createHash('sha256').update(raw!).digest('hex');
    const job = this.jobs.row<WebhookJob>(
      WEBHOOK_QUEUE,
      { digest, body: parsed.body },
      { dedupeKey: `wa:${digest}`, maxAttempts: 20 },
    );
    await this.events.received(digest, this.clock.now(), job);
    return { received: true };
  }

  private assertProvider(provider: string) {
    if (provider !== 'whatsapp')
      throw new WebhookException(WebhookErrorCode.UnknownProvider, `unknown messaging provider ${provider}`);
  }
}
