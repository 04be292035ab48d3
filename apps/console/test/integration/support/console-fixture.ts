import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { Clock, createServiceApp, migrateSchema, startServiceApp } from '@kyc/platform';
import {
  createTenant,
  freePort,
  harness,
  repoRoot,
  RunningService,
  SandboxMessaging,
  serviceEnv,
  SmtpSink,
  startProcess,
  startSandboxMessaging,
  startService,
  startSmtpSink,
  TestTenant,
} from '@kyc/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

import { consoleService } from '../../../src/app.module';

export interface ConsoleStack {
  smtp: SmtpSink;
  account: RunningService;
  identity: RunningService;
  checks: RunningService;
  /** Started with `customers: true`. */
  customers?: RunningService;
  /** The validations service (real engines, from dist/), when the stack was started with `validations`. */
  validations?: RunningService;
  console: RunningService & { app: NestFastifyApplication };
  /** With `engagement: true`: the engagement service on the sandbox messaging provider. */
  engagement?: RunningService;
  sandbox?: SandboxMessaging;
  tenant: TestTenant;
  /** The tenant admin's e-mail (its username). */
  adminEmail: string;
  close(): Promise<void>;
}

const group = (name: string) => ({ KAFKA_CONSUMER_GROUP: `${name}-console-${randomUUID().slice(0, 8)}` });

/**
 * The console with the services its pages call (account, identity, checks; in this process, as the
 * stack runs them), an SMTP sink receiving its sign-in codes, and a tenant whose admin signs in.
 * With `validations`, also the validations service (its own process, real engines) that identity's
 * document and face steps use, so processes carry images.
 */
export async function startConsoleStack(
  options: {
    clock?: Clock;
    env?: Record<string, string>;
    services?: boolean;
    /** Also the customers service (profiles folded from the checks' events, contacts, segments). */
    customers?: boolean;
    /** Settings of the checks service (e.g. CHECKS_SANDBOX_LATENCY_SCALE). */
    checksEnv?: Record<string, string>;
    /** Also the validations service (its own process, real engines). */
    validations?: boolean;
    /** Also the engagement service (agent inbox), on a sandbox messaging provider. */
    engagement?: boolean;
    engagementEnv?: Record<string, string>;
  } = {},
): Promise<ConsoleStack> {
  const smtp = await startSmtpSink();
  const validationsPort = options.validations ? await freePort() : undefined;
  const validationsUrl = validationsPort ? `http://127.0.0.1:${validationsPort}` : undefined;
  const sandbox = options.engagement
    ? await startSandboxMessaging({ reviewDelayMs: 150, statusDelayMs: 60 })
    : undefined;
  const [account, identity, checks, customers, validations, engagement] = await Promise.all([
    startService('account', group('account')),
    startService('identity', {
      ...group('identity'),
      ...(validationsUrl ? { IDENTITY_VALIDATIONS_URL: validationsUrl, JOBS_POLL_MS: '100' } : {}),
    }),
    startService('checks', { ...group('checks'), ...options.checksEnv }),
    options.customers ? startService('customers', { ...group('customers'), JOBS_POLL_MS: '200' }) : undefined,
    validationsPort
      ? startProcess('validations', validationsPort, {
          ...group('validations'),
          VALIDATIONS_SMTP_URL: smtp.url,
          VALIDATIONS_SECRET_KEY: 'console-test-validations-secret',
        })
      : undefined,
    sandbox
      ? startService('engagement', {
          ...group('engagement'),
          ENGAGEMENT_GRAPH_BASE_URL: sandbox.graphUrl,
          JOBS_POLL_MS: '50',
          ...options.engagementEnv,
        })
      : undefined,
  ]);
  if (sandbox && engagement) sandbox.setWebhookUrl(`${engagement.url}/v1/msg/whatsapp/statuses`);
  const env: Record<string, string> = {
    ...serviceEnv('account'),
    SERVICE_NAME: 'console',
    DB_SCHEMA: 'console',
    API_KEY_PRIVATE_KEY: harness().privateKey,
    CONSOLE_SECRET_KEY: 'console-test-secret-key',
    CONSOLE_SMTP_URL: smtp.url,
    CONSOLE_ACCOUNT_URL: account.url,
    CONSOLE_IDENTITY_URL: identity.url,
    CONSOLE_CHECKS_URL: checks.url,
    ...(customers ? { CONSOLE_CUSTOMERS_URL: customers.url } : {}),
    ...(validations ? { CONSOLE_VALIDATIONS_URL: validations.url } : {}),
    ...(engagement ? { CONSOLE_ENGAGEMENT_URL: engagement.url } : {}),
    CONSOLE_WEB_DIR: path.join(repoRoot, 'dist/apps/console/web'),
    ...options.env,
  };
  const def = consoleService(env, { clock: options.clock });
  await migrateSchema({
    url: def.config.DATABASE_URL,
    schema: 'console',
    entities: def.entities,
    migrations: def.migrations,
  });
  const app = await createServiceApp(def);
  await startServiceApp(app, def, 0);
  const { port } = app.getHttpServer().address() as AddressInfo;
  const consoleUrl = `http://127.0.0.1:${port}`;
  const tenant = await createTenant(
    account.url,
    [account.url, identity.url, checks.url, customers?.url, validations?.url, engagement?.url].filter(
      (u): u is string => !!u,
    ),
  );
  return {
    smtp,
    account,
    identity,
    checks,
    customers,
    validations,
    console: { app, url: consoleUrl, close: () => app.close() },
    engagement,
    sandbox,
    tenant,
    adminEmail: `admin@${tenant.tenantId}.test`,
    close: async () => {
      await app.close();
      await Promise.all([
        account.close(),
        identity.close(),
        checks.close(),
        customers?.close(),
        validations?.close(),
        engagement?.close(),
        sandbox?.stop(),
      ]);
      await smtp.close();
    },
  };
}

/** The 6-digit code of the latest console sign-in mail to `email` received after `since` messages. */
export async function codeFor(smtp: SmtpSink, email: string, since: number, timeoutMs = 10_000): Promise<string> {
  const mail = await smtp.waitFor(
    (m) => m.recipients.includes(email.toLowerCase()) && smtp.messages.indexOf(m) >= since,
    timeoutMs,
  );
  return /\b(\d{6})\b/.exec(mail.subject)![1];
}

/** A browser-less client of the console: keeps its cookie and CSRF token like the page does. */
export class ConsoleClient {
  cookie = '';
  csrf = '';

  constructor(readonly url: string) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(method !== 'GET' && this.csrf ? { 'x-csrf-token': this.csrf } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0];
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    if (json?.csrf_token) this.csrf = json.csrf_token;
    return { status: res.status, body: json, headers: res.headers };
  }

  /** Asks for a code, reads it from the sink (waiting at most `mailWaitMs`), signs in. */
  async signIn(smtp: SmtpSink, email: string, tenantId?: string, mailWaitMs = 10_000) {
    const since = smtp.messages.length;
    const asked = await this.request('POST', '/api/session/code', { email, tenant_id: tenantId });
    if (asked.status !== 202) throw new Error(`code not sent: ${asked.status} ${JSON.stringify(asked.body)}`);
    const code = await codeFor(smtp, email, since, mailWaitMs);
    const res = await this.request('POST', '/api/session', { email, code, tenant_id: tenantId });
    if (res.status !== 201 && res.status !== 200)
      throw new Error(`not signed in: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  }
}
