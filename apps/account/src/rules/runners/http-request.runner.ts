import { Clock, Job, OutboundHttpClient, OutboundHttpError, PermanentJobError } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { HttpRequestConfig } from '../actions/action-config';
import { ActionJobPayload } from '../engine/action-queues';
import { ExecutionsService } from '../executions/executions.service';
import { SIGNATURE_HEADER, signatureHeader } from '../signing/signature';
import { SigningSecretsService } from '../signing/signing-secrets.service';
import { renderTemplate } from '../templates/template';
import { ActionRun, ActionRunContext, redact } from './action-context';

export const USER_AGENT = 'kyc-rules-engine/1';

/** Statuses worth another attempt; any other non-2xx answer fails the execution at once. */
const RETRYABLE = (status: number) => status === 408 || status === 425 || status === 429 || status >= 500;

/** The request an http_request action sends (rendered, signed). */
export interface SignedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * http_request actions: renders the URL, headers and body, signs the body (X-Signature, with
 * every active signing secret of the tenant), and sends it with fetch under the configured
 * timeout. 2xx succeeds; 408, 425, 429, 5xx, timeouts and network errors are retried with
 * exponential backoff up to max_attempts; other answers fail at once. Every attempt carries the
 * same Idempotency-Key (event id and action id), so a receiver can drop a repeat that follows a
 * crash between its answer and the record of it.
 */
@Injectable()
export class HttpRequestRunner {
  constructor(
    private readonly context: ActionRunContext,
    private readonly executions: ExecutionsService,
    private readonly signing: SigningSecretsService,
    private readonly clock: Clock,
    private readonly outbound: OutboundHttpClient,
  ) {}

  async run(job: Job<ActionJobPayload>, manager: EntityManager): Promise<void> {
    const run = await this.context.open(manager, job);
    if (!run) return;
    let request: SignedRequest;
    try {
      request = await this.build(run);
    } catch (err) {
      const error = redact(`the request could not be built: ${(err as Error).message}`, run.env.secrets);
      await this.executions.settle(manager, run.execution, 'failed', { error });
      throw new PermanentJobError(error);
    }
    let status: number | undefined;
    let error: string | undefined;
    let permanent = false;
    try {
      // The platform's outbound client: internal addresses refused, no redirects, fixed failure reasons.
      const timeoutMs = (run.action.config as HttpRequestConfig).timeout_ms;
      const res = await this.outbound.request({
        url: request.url,
        method: request.method,
        headers: request.headers,
        body: request.method === 'GET' ? undefined : request.body,
        timeoutMs,
        maxResponseBytes: 65_536,
      });
      status = res.status;
    } catch (err) {
      const reason = err instanceof OutboundHttpError ? err.reason : 'connection_failed';
      const timeoutMs = (run.action.config as HttpRequestConfig).timeout_ms;
      error = reason === 'timeout' ? `no answer within ${timeoutMs} ms` : `request failed: ${reason}`;
      // An address the policy refuses or a URL it cannot call stays refused: no retry.
      permanent = reason === 'blocked_address' || reason === 'invalid_url';
    }
    if (status !== undefined && status >= 200 && status < 300) {
      await this.executions.settle(manager, run.execution, 'succeeded', { responseStatus: status });
      return;
    }
    error = redact(
      error ??
        `the receiver answered ${status}${status !== undefined && status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
      run.env.secrets,
    );
    const retry = !permanent && (status === undefined || RETRYABLE(status));
    await this.executions.settle(manager, run.execution, retry && !run.final ? 'retrying' : 'failed', {
      responseStatus: status ?? null,
      error,
    });
    throw retry ? new Error(error) : new PermanentJobError(error);
  }

  async build(run: ActionRun): Promise<SignedRequest> {
    const config = run.action.config as HttpRequestConfig;
    const url = renderTemplate(config.url, run.scope);
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new Error('the rendered url is not http or https');
    const body =
      config.method === 'GET'
        ? ''
        : config.body !== undefined
          ? renderTemplate(config.body, run.scope)
          : JSON.stringify({
              event_id: run.execution.eventId,
              event_type: run.variables.event_type,
              rule_id: run.execution.ruleId,
              rule_version: run.execution.ruleVersion,
              action_id: run.action.id,
              execution_id: run.execution.id,
              check: run.variables,
            });
    const headers: Record<string, string> = { 'user-agent': USER_AGENT };
    if (config.method !== 'GET') headers['content-type'] = 'application/json';
    for (const [name, template] of Object.entries(config.headers ?? {}))
      headers[name.toLowerCase()] = renderTemplate(template, run.scope).replace(/[\r\n]+/g, ' ');
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    headers['idempotency-key'] = `${run.execution.eventId}:${run.action.id}`;
    headers['x-kyc-event-id'] = run.execution.eventId;
    headers['x-kyc-execution-id'] = run.execution.id;
    headers[SIGNATURE_HEADER.toLowerCase()] = signatureHeader(
      await this.signing.signingSecrets(run.execution.tenantId, run.signing),
      body,
      timestamp,
    );
    return { url: parsed.toString(), method: config.method, headers, body };
  }
}
