import { Job, PermanentDeliveryError, PermanentJobError } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { EmailConfig } from '../actions/action-config';
import { ActionJobPayload } from '../engine/action-queues';
import { ExecutionsService } from '../executions/executions.service';
import { renderTemplate } from '../templates/template';
import { ActionRunContext, redact } from './action-context';
import { Mailer } from './mailer';

/**
 * email actions: renders the recipients, subject and text body and sends them over SMTP. A 5xx
 * reply fails the execution; connection problems and 4xx replies are retried with backoff. The
 * Message-ID is the execution's, the same on every attempt.
 */
@Injectable()
export class EmailRunner {
  constructor(
    private readonly context: ActionRunContext,
    private readonly executions: ExecutionsService,
    private readonly mailer: Mailer,
  ) {}

  async run(job: Job<ActionJobPayload>, manager: EntityManager): Promise<void> {
    const run = await this.context.open(manager, job);
    if (!run) return;
    const config = run.action.config as EmailConfig;
    const render = (t: string) => renderTemplate(t, run.scope);
    const to = config.to
      .map(render)
      .map((a) => a.trim())
      .filter(Boolean);
    const cc = config.cc
      .map(render)
      .map((a) => a.trim())
      .filter(Boolean);
    if (!to.length) {
      await this.executions.settle(manager, run.execution, 'failed', {
        error: 'no recipient: every "to" address rendered empty',
      });
      throw new PermanentJobError('no recipient');
    }
    try {
      const receipt = await this.mailer.send({
        to,
        cc,
        subject: render(config.subject).replace(/[\r\n]+/g, ' '),
        text: render(config.body),
        messageId: `<${run.execution.id}@rules.kyc.local>`,
        headers: { 'X-Kyc-Event-Id': run.execution.eventId, 'X-Kyc-Execution-Id': run.execution.id },
      });
      await this.executions.settle(manager, run.execution, 'succeeded', { responseStatus: receipt.responseCode });
    } catch (err) {
      const permanent = err instanceof PermanentDeliveryError;
      const error = redact(`sending failed: ${(err as Error).message}`, run.env.secrets);
      const code = (err as { responseCode?: number }).responseCode ?? null;
      await this.executions.settle(manager, run.execution, permanent || run.final ? 'failed' : 'retrying', {
        responseStatus: code,
        error,
      });
      throw permanent ? new PermanentJobError(error) : new Error(error);
    }
  }
}
