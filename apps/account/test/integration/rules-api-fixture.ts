import { randomUUID } from 'node:crypto';

import { ApiClient, closeDb, createTenant, db, RunningService, startInProcess, TestTenant } from '@kyc/testing';

import { accountService } from '../../src/app.module';

/**
 * The rules-engine API of the account service at the HTTP boundary (real PostgreSQL and Kafka):
 * rules with versions, actions with their per-type configuration, env vars with encrypted
 * secrets, the variables spec, the signing secret, validation (400 naming the field, nothing
 * stored), permissions, tenant isolation and the audit log.
 */
export let account: RunningService;

export let tenant: TestTenant;

export let other: TestTenant;

export let api: ApiClient;

export let otherApi: ApiClient;

export const condition = { and: [{ '==': [{ var: 'country' }, 'CO'] }, { '<': [{ var: 'score' }, 0.5] }] };

export const putJson = (client: ApiClient, path: string, body: unknown) =>
  client.request<any>('PUT', path, body, { 'content-type': 'application/json' });

export const count = async (sql: string, params: unknown[]) => (await db().query(sql, params)).rows[0].n as number;

export const rulesOf = (tenantId: string) =>
  count(`SELECT count(*)::int AS n FROM account.bre_rules WHERE tenant_id = $1`, [tenantId]);

export const actionsOf = (tenantId: string) =>
  count(`SELECT count(*)::int AS n FROM account.bre_actions WHERE tenant_id = $1`, [tenantId]);

export const envsOf = (tenantId: string) =>
  count(`SELECT count(*)::int AS n FROM account.bre_action_envs WHERE tenant_id = $1`, [tenantId]);

export const fieldsOf = (res: { body: any }) => (res.body.fields ?? []).map((f: { field: string }) => f.field).sort();

export const newRule = async (body: Record<string, unknown> = {}) => {
  const res = await api.postJson('/v1/bre/rules', {
    name: 'Risky CO checks',
    event_type: 'checks.check.finished',
    condition,
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body.rule.rule_id as string;
};

export const newAction = async (ruleId: string, body: Record<string, unknown> = {}) => {
  const res = await api.postJson(`/v1/bre/rules/${ruleId}/actions`, {
    name: 'Notify',
    type: 'http_request',
    config: { url: 'https://hooks.example.com/kyc' },
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body.action.action_id as string;
};

/**
 * Registers a part's setup (a describe of rules-api/): the account service, booted once for the test
 * file (rules-api.integration-spec.ts runs the four parts on it), and two tenants of the part's own.
 */
export function useRulesApi(): void {
  beforeAll(async () => {
    account ??= await startInProcess('account', accountService, {
      KAFKA_CONSUMER_GROUP: `account-rules-api-${randomUUID().slice(0, 8)}`,
    });
    [tenant, other] = await Promise.all([createTenant(account.url), createTenant(account.url)]);
    api = new ApiClient(account.url, tenant.apiKey);
    otherApi = new ApiClient(account.url, other.apiKey);
  });
}

/** Stops the service after the test file's last part. */
export function closeRulesApiAfterAll(): void {
  afterAll(async () => {
    await account?.close();
    await closeDb();
  });
}
