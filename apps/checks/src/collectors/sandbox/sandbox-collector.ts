import type { BuiltInCheckType, CheckCountry, DataSet, DetailLanguage } from '@kyc/contracts';

import type { SandboxOverride } from '../../config/checks.config';
import {
  chooseSearch,
  Collector,
  CollectorAnswer,
  CollectorContext,
  CollectorError,
  CollectorOutcome,
  DetailGroup,
  SearchRoute,
  SearchSpec,
  WebhookAnswer,
  WebhookParser,
} from '../collector';
import { hashUnit, SearchInput } from './sandbox-chance';
import { SANDBOX_DATABASES, SandboxDatabaseSpec } from './sandbox-databases';
import { sandboxAnswer, subjectFails } from './sandbox-search';

export const SANDBOX_WEBHOOK_TYPE = 'sandbox';
export const SANDBOX_CALLBACK_QUEUE = 'checks.sandbox-callback';

export interface SandboxTuning {
  /** Multiplies every nominal latency (CHECKS_SANDBOX_LATENCY_SCALE). */
  latencyScale: number;
  /** CHECKS_SANDBOX_FAILURE_RATE. */
  failureRate: number;
  /** CHECKS_SANDBOX_DATABASES. */
  overrides: Record<string, SandboxOverride>;
}

/** What the sandbox "provider" needs to answer a query later through the webhook. */
export interface SandboxCallback {
  database_id: string;
  reference: string;
  check_id: string;
  type: string;
  search: SearchRoute;
  search_inputs: string[];
  inputs: Record<string, string>;
  region: string | null;
  attempt: number;
}

export interface SandboxCallbackScheduler {
  schedule(callback: SandboxCallback, runAt: Date): Promise<void>;
}

/**
 * A sandbox database: answers from the documented fictitious data set (sandbox-identities.ts)
 * after its configured latency, measured on the engine's clock, and fails at its configured rate.
 * Polled databases answer `pending` with the time to ask again; webhook databases (Brazil's
 * nation-wide court search) schedule their answer, which arrives signed at POST /v1/webhooks/sandbox.
 */
export class SandboxCollector implements Collector {
  readonly databaseId: string;
  readonly databaseName: string;
  readonly country: CheckCountry;
  readonly dataSets: readonly DataSet[];
  readonly checkTypes: readonly BuiltInCheckType[];
  readonly searches: readonly SearchSpec[];
  readonly needsCredentials: boolean;
  readonly expectedLatencyMs: number;
  readonly language: DetailLanguage;
  readonly group: DetailGroup;
  readonly webhookType?: string;

  constructor(
    readonly spec: SandboxDatabaseSpec,
    private readonly tuning: SandboxTuning,
    private readonly scheduler?: SandboxCallbackScheduler,
  ) {
    this.databaseId = spec.id;
    this.databaseName = spec.name;
    this.country = spec.country;
    this.dataSets = spec.dataSets;
    this.checkTypes = spec.types;
    this.searches = spec.searches;
    this.needsCredentials = !!spec.needsCredentials;
    this.expectedLatencyMs = spec.expectedLatencyMs;
    this.language = spec.language;
    this.group = spec.group;
    if (spec.webhook) this.webhookType = SANDBOX_WEBHOOK_TYPE;
  }

  appliesTo(check: { country: CheckCountry; region: string | null }): boolean {
    if (this.spec.regions === 'state') return !!check.region && check.region !== 'ALL';
    if (this.spec.regions === 'nation-wide') return check.region === 'ALL';
    return true;
  }

  /** A polled sandbox database has its answer after its latency: ask then (webhook ones are asked at once). */
  firstAskDelayMs(check: { region: string | null }): number {
    return this.webhookType ? 0 : this.latencyMs(check.region);
  }

  /** Its answer time (the engine may ask it inline when that is short and there is no first-ask delay). */
  answerLatencyMs(check: { region: string | null }): number {
    return this.latencyMs(check.region);
  }

  /** Answer time of this database for a region, after the overrides and the scale. */
  latencyMs(region: string | null): number {
    const override = this.tuning.overrides[this.databaseId]?.latency_ms;
    if (override !== undefined) return override;
    const nominal = typeof this.spec.latencyMs === 'function' ? this.spec.latencyMs(region) : this.spec.latencyMs;
    return Math.round(nominal * this.tuning.latencyScale);
  }

  get failureRate(): number {
    return this.tuning.overrides[this.databaseId]?.failure_rate ?? this.tuning.failureRate;
  }

  async collect(ctx: CollectorContext): Promise<CollectorOutcome> {
    const chosen = chooseSearch(this, ctx.type, ctx.inputs);
    if (!('search' in chosen)) throw new CollectorError(`missing inputs: ${chosen.invalidInputs.join(', ')}`, true);
    const region = ctx.inputs.region ?? null;
    if (this.webhookType) {
      if (!this.scheduler) throw new CollectorError('the sandbox provider is not running in this process');
      const callback: SandboxCallback = {
        database_id: this.databaseId,
        reference: ctx.reference,
        check_id: ctx.checkId,
        type: ctx.type,
        search: chosen.search.by,
        search_inputs: chosen.search.inputs,
        inputs: { ...ctx.inputs },
        region,
        attempt: ctx.attempt,
      };
      await this.scheduler.schedule(callback, new Date(ctx.now.getTime() + this.latencyMs(region)));
      return { kind: 'pending' };
    }
    const readyAt = new Date(ctx.requestedAt.getTime() + this.latencyMs(region));
    if (ctx.now < readyAt) return { kind: 'pending', pollAt: readyAt };
    if (this.needsCredentials && ctx.credentials?.password === 'invalid')
      throw new CollectorError(`${this.databaseName} refused the stored credentials (authentication failed)`, true);
    return this.answer(
      {
        spec: this.spec,
        search: chosen.search.by,
        searchInputs: chosen.search.inputs,
        inputs: ctx.inputs,
        region,
        now: ctx.now,
      },
      ctx.checkId,
      ctx.attempt,
      ctx.now,
    );
  }

  /** The answer, or the configured failure (transient: retried when the tenant's settings ask for retries). */
  answer(input: SearchInput, checkId: string, attempt: number, now: Date): CollectorAnswer {
    if (subjectFails(input) || hashUnit(checkId, this.databaseId, attempt, now.getTime()) < this.failureRate) {
      throw new CollectorError(`${this.databaseName} is temporarily unavailable (sandbox failure)`);
    }
    const answer = sandboxAnswer(input);
    if (this.spec.certificate) {
      const found = answer.records.length;
      const text = [
        `SANDBOX CERTIFICATE - ${this.databaseName}`,
        `Document: ${input.inputs[input.searchInputs[0]] ?? ''}`,
        `Records: ${found ? found : 'none'}`,
        `Issued: ${now.toISOString()}`,
        'Fictitious data, not valid for any legal purpose.',
      ].join('\n');
      answer.attachments = [
        {
          file_name: `${this.databaseId}-certificate.txt`,
          content_type: 'text/plain',
          content: Buffer.from(text).toString('base64'),
        },
      ];
    }
    return answer;
  }
}

/** Body of POST /v1/webhooks/sandbox (what the sandbox provider sends, signed). */
export interface SandboxWebhookBody {
  reference: string;
  status: 'completed' | 'failed';
  answer?: CollectorAnswer;
  message?: string;
}

/** Reads the sandbox provider's webhook calls. */
export class SandboxWebhookParser implements WebhookParser {
  readonly webhookType = SANDBOX_WEBHOOK_TYPE;

  parse(body: unknown): WebhookAnswer {
    const b = (body ?? {}) as Partial<SandboxWebhookBody>;
    if (typeof b.reference !== 'string' || !b.reference)
      throw new WebhookBodyError('reference', 'reference is required');
    if (b.status === 'failed')
      return {
        reference: b.reference,
        outcome: {
          kind: 'failure',
          message: typeof b.message === 'string' ? b.message : 'the provider reported a failure',
        },
      };
    if (b.status !== 'completed') throw new WebhookBodyError('status', 'status must be completed or failed');
    const answer = b.answer;
    if (!answer || typeof answer !== 'object' || !Array.isArray(answer.records))
      throw new WebhookBodyError('answer', 'answer.records must be a list');
    return { reference: b.reference, outcome: { ...answer, kind: 'answer' } };
  }
}

export class WebhookBodyError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The sandbox registry: one collector per sandbox database of sandbox-databases.ts. */
export const sandboxCollectors = (tuning: SandboxTuning, scheduler?: SandboxCallbackScheduler): SandboxCollector[] =>
  SANDBOX_DATABASES.map((spec) => new SandboxCollector(spec, tuning, scheduler));
