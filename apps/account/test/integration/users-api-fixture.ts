import { randomUUID } from 'node:crypto';

import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  mintKey,
  RunningService,
  signer,
  startInProcess,
  startService,
  TestTenant,
} from '@kyc/testing';

import { accountService } from '../../src/app.module';

/**
 * Users of an account at the HTTP boundary (account service), with the checks service running
 * too: validation of every field (4xx naming the field, nothing stored), billing hubs, tenancy,
 * pagination, the audit log, and a disabled or deleted user's key being refused in another
 * service within 2 seconds.
 */
export let account: RunningService;

export let checks: RunningService;

export let tenantA: TestTenant;

export let tenantB: TestTenant;

export let api: ApiClient;

export let operator: ApiClient;

let n = 0;

/** A number not used before in this run (unique e-mails). */
export const nextNumber = () => ++n;

export const email = (prefix = 'user') => `${prefix}.${++n}.${randomUUID().slice(0, 6)}@Example.com`;

export const enc = encodeURIComponent;

export const usersOf = async (tenantId: string) =>
  (await db().query(`SELECT count(*)::int AS n FROM account.users WHERE tenant_id = $1`, [tenantId])).rows[0]
    .n as number;

export const userRow = async (tenantId: string, username: string) =>
  (
    await db().query(`SELECT * FROM account.users WHERE tenant_id = $1 AND username = $2`, [
      tenantId,
      username.toLowerCase(),
    ])
  ).rows[0];

export const auditOf = async (client: ApiClient, query: Record<string, string>) =>
  (await client.get(`/v1/account/audit-log?${new URLSearchParams(query).toString()}`)).body.entries as any[];

export const keyOf = (tenant: TestTenant, userId: string) => mintKey({ tenant_id: tenant.tenantId, sub: userId });

export const acceptedAt = (url: string, key: string) =>
  eventually(async () => expect((await new ApiClient(url, key).get('/v1/auth/whoami')).status).toBe(200), {
    timeoutMs: 10_000,
    intervalMs: 50,
  });

/**
 * Registers a part's setup (a describe of users-api/): the account and checks services, booted once for
 * the test file (users-api.integration-spec.ts runs the parts on them), and tenants of the part's own.
 */
export function useUsersApi(): void {
  beforeAll(async () => {
    if (!account)
      [account, checks] = await Promise.all([
        startInProcess('account', accountService, {
          KAFKA_CONSUMER_GROUP: `account-users-spec-${randomUUID().slice(0, 8)}`,
        }),
        startService('checks', { CHECKS_WORKER_ENABLED: 'false' }),
      ]);
    [tenantA, tenantB] = await Promise.all([
      createTenant(account.url, [account.url, checks.url]),
      createTenant(account.url, [account.url]),
    ]);
    api = new ApiClient(account.url, tenantA.apiKey);
    operator = new ApiClient(account.url, await signer().platformAdminToken('users-spec'));
  });
}

/** Stops the services after the test file's last part. */
export function closeUsersApiAfterAll(): void {
  afterAll(async () => {
    await Promise.all([account?.close(), checks?.close()]);
    await closeDb();
  });
}
