import { randomBytes } from 'node:crypto';

import { JobQueueService, ManualClock } from '@kyc/platform';
import {
  ApiClient,
  ApiResponse,
  closeDb,
  createTenant,
  db,
  RunningService,
  startInProcess,
  startService,
  TestTenant,
} from '@kyc/testing';

import { checksService } from '../../src/app.module';

type App = Awaited<ReturnType<typeof startInProcess>>['app'];

/** What the resource suites around the engine share: checks (ManualClock) and account, two tenants. */
export interface ChecksResources {
  clock: ManualClock;
  env: Record<string, string>;
  checks: RunningService & { app: App };
  account: RunningService & { app: App };
  jobs: JobQueueService;
  a: TestTenant;
  b: TestTenant;
  /** Tenant a's client of the checks service. */
  api: ApiClient;
  /** Tenant b's client of the checks service. */
  other: ApiClient;
  /** Rows of a checks table of a tenant. */
  count: (table: string, tenantId: string) => Promise<number>;
  /** Creates a check (forced, authorized), runs the engine until it is done and returns it. */
  runCheck: (client: ApiClient, body: Record<string, string>) => Promise<ApiResponse['body']>;
}

/**
 * Starts the checks service (sandbox latency 0, a ManualClock, Brazil's tj-national answering in
 * two days, Peru's police always failing) and account for the suite, with two tenants; the fields
 * are set once beforeAll ran.
 */
export function useChecksResources(): ChecksResources {
  const clock = new ManualClock('2031-05-20T15:30:00Z');
  const env = {
    JOBS_POLL_MS: '60000',
    CHECKS_SANDBOX_LATENCY_SCALE: '0',
    CHECKS_SANDBOX_DATABASES: JSON.stringify({
      'sandbox-br-tj-national': { latency_ms: 2 * 86_400_000 },
      'sandbox-pe-police': { failure_rate: 1 },
    }),
  };
  const resources: Partial<ChecksResources> = {
    clock,
    env,
    count: async (table: string, tenantId: string) =>
      (
        await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM checks.${table} WHERE tenant_id = $1`, [
          tenantId,
        ])
      ).rows[0].n,
    runCheck: async (client: ApiClient, body: Record<string, string>) => {
      const res = await client.post<{ check: { check_id: string } }>('/v1/checks', {
        user_authorized: 'true',
        force_creation: 'true',
        ...body,
      });
      expect(res.status).toBe(201);
      await ctx.jobs.drain();
      return (
        await client.get<{ check: Record<string, unknown> & { check_id: string } }>(
          `/v1/checks/${res.body.check.check_id}`,
        )
      ).body.check;
    },
  };
  const ctx = resources as ChecksResources; // the services and tenants are set by beforeAll

  beforeAll(async () => {
    [ctx.account, ctx.checks] = await Promise.all([
      startService('account', { KAFKA_CONSUMER_GROUP: `account-resources-${randomBytes(4).toString('hex')}` }),
      startInProcess('checks', checksService, env, { clock }),
    ]);
    ctx.jobs = ctx.checks.app.get(JobQueueService);
    [ctx.a, ctx.b] = await Promise.all([
      createTenant(ctx.account.url, [ctx.checks.url]),
      createTenant(ctx.account.url, [ctx.checks.url]),
    ]);
    ctx.api = new ApiClient(ctx.checks.url, ctx.a.apiKey);
    ctx.other = new ApiClient(ctx.checks.url, ctx.b.apiKey);
  });

  afterAll(async () => {
    await Promise.all([ctx.checks?.close(), ctx.account?.close()]);
    await closeDb();
  });

  return ctx;
}
