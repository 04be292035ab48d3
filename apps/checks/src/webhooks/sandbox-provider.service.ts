import { Clock, Job, JobQueueService } from '@kyc/platform';
import { Injectable, OnModuleInit } from '@nestjs/common';

import { CollectorError } from '../collectors/collector';
import { CollectorRegistry } from '../collectors/collector.registry';
import {
  SANDBOX_CALLBACK_QUEUE,
  SANDBOX_WEBHOOK_TYPE,
  SandboxCallback,
  SandboxCollector,
  SandboxWebhookBody,
} from '../collectors/sandbox/sandbox-collector';
import { ChecksConfig } from '../config/checks.config';
import { WebhookSigner } from './webhook-signer';
import { WebhooksService } from './webhooks.service';

/**
 * Plays the third party behind the sandbox's asynchronous databases: when a queued answer is due it
 * computes it, signs it with the webhook secret and delivers it to the webhook receiver, exactly as
 * a provider's POST /v1/webhooks/sandbox would arrive (the same signature check and parsing).
 */
@Injectable()
export class SandboxProviderService implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueueService,
    private readonly registry: CollectorRegistry,
    private readonly signer: WebhookSigner,
    private readonly webhooks: WebhooksService,
    private readonly clock: Clock,
    private readonly config: ChecksConfig,
  ) {}

  onModuleInit(): void {
    if (!this.config.CHECKS_WORKER_ENABLED) return;
    this.jobs.register<SandboxCallback>(SANDBOX_CALLBACK_QUEUE, (job) => this.deliver(job), {
      concurrency: 2,
      lockMs: this.config.CHECKS_WORKER_LOCK_MS,
    });
  }

  private async deliver(job: Job<SandboxCallback>): Promise<void> {
    const cb = job.payload;
    const collector = this.registry.get(cb.database_id);
    if (!(collector instanceof SandboxCollector)) return;
    const now = this.clock.now();
    let body: SandboxWebhookBody;
    try {
      const answer = collector.answer(
        {
          spec: collector.spec,
          search: cb.search,
          searchInputs: cb.search_inputs,
          inputs: cb.inputs,
          region: cb.region,
          now,
        },
        cb.check_id,
        cb.attempt,
        now,
      );
      body = { reference: cb.reference, status: 'completed', answer };
    } catch (err) {
      if (!(err instanceof CollectorError)) throw err;
      body = { reference: cb.reference, status: 'failed', message: err.message };
    }
    const plain = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
    await this.webhooks
      .receive(SANDBOX_WEBHOOK_TYPE, plain, this.signer.sign(SANDBOX_WEBHOOK_TYPE, plain, now))
      .catch((err) => {
        // A check deleted meanwhile: nothing is waiting for this answer.
        if ((err as { errorCode?: string }).errorCode === 'unknown_webhook_reference') return;
        throw err;
      });
  }
}
