import { Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { CollectorRegistry } from '../collectors/collector.registry';
import { WebhookBodyError } from '../collectors/sandbox/sandbox-collector';
import { RecordWebhookAnswerUseCase } from '../engine/use-cases/record-webhook-answer.use-case';
import { WebhookSigner } from './webhook-signer';
import { WebhookErrorCode, WebhookException } from './webhooks.exception';

/**
 * Receives third-party callbacks (POST /v1/webhooks/{webhook_type}): an asynchronous database
 * answering a query. The type must be one a collector declared (else 404); the call must carry a
 * valid, fresh HMAC signature (else 401); its reference must be a query the engine made (else 404).
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly registry: CollectorRegistry,
    private readonly signer: WebhookSigner,
    private readonly recordAnswer: RecordWebhookAnswerUseCase,
    private readonly clock: Clock,
  ) {}

  async receive(
    type: string,
    body: unknown,
    signature: string | undefined,
  ): Promise<{ received: true; outcome: string }> {
    const parser = this.registry.webhookParser(type);
    if (!parser) throw new WebhookException(WebhookErrorCode.UnknownWebhookType, `unknown webhook type ${type}`);
    if (!signature)
      throw new WebhookException(WebhookErrorCode.MissingSignature, 'The X-Webhook-Signature header is required');
    if (!this.signer.verify(type, body, signature, this.clock.now()))
      throw new WebhookException(WebhookErrorCode.InvalidSignature, 'The webhook signature is invalid or expired');
    let parsed;
    try {
      parsed = parser.parse(body);
    } catch (err) {
      if (err instanceof WebhookBodyError)
        throw new WebhookException(WebhookErrorCode.InvalidBody, 'Invalid webhook body', [
          { field: err.field, message: err.message },
        ]);
      throw err;
    }
    const outcome = await this.recordAnswer.execute(parsed.reference, parsed.outcome);
    if (outcome === 'unknown')
      throw new WebhookException(WebhookErrorCode.UnknownReference, `no query with reference ${parsed.reference}`);
    return { received: true, outcome };
  }
}
