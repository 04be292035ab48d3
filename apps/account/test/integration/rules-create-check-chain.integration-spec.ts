import { randomUUID } from 'node:crypto';

import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  freePort,
  ServiceProcess,
  startProcess,
  TestTenant,
} from '@kyc/testing';

import { ruleWithActions } from './support/rules-helpers';

/**
 * create_check end to end: account's create_check action sends `account.check.requested`, the
 * checks service creates the check (RuleRequestsModule), the new check finishes, and the rule
 * fires again on it, until the depth limit (3) stops the chain with a skipped execution.
 */
describe('create_check chains across the checks and account processes', () => {
  let checks: ServiceProcess;
  let account: ServiceProcess;
  let tenant: TestTenant;
  let rulesApi: ApiClient;
  let checksApi: ApiClient;

  beforeAll(async () => {
    [checks, account] = await Promise.all([
      startProcess('checks', await freePort()),
      startProcess('account', await freePort(), { KAFKA_CONSUMER_GROUP: `account-chain-${randomUUID().slice(0, 8)}` }),
    ]);
    tenant = await createTenant(account.url, [checks.url]);
    rulesApi = new ApiClient(account.url, tenant.apiKey);
    checksApi = new ApiClient(checks.url, tenant.apiKey);
  });

  afterAll(async () => {
    await Promise.all([checks?.kill(), account?.kill()]);
    await closeDb();
  });

  it('creates a check per link of the chain and stops at the depth limit', async () => {
    const nationalId = `${Date.now()}`;
    const { ruleId } = await ruleWithActions(
      rulesApi,
      { and: [{ '==': [{ var: 'country' }, 'CO'] }, { '==': [{ var: 'national_id' }, nationalId] }] },
      [
        {
          type: 'create_check',
          config: {
            type: 'person',
            country: 'CO',
            inputs: {
              national_id: '{{.national_id}}',
              first_name: '{{.first_name}}',
              custom_input: 'chain-{{.rule_depth}}',
            },
          },
        },
      ],
    );
    const first = await checksApi.post('/v1/checks', {
      country: 'CO',
      type: 'person',
      user_authorized: 'true',
      first_name: 'Ana',
      national_id: nationalId,
    });
    expect(first.status).toBe(201);

    const executions = await eventually(
      async () => {
        const list = (await rulesApi.get(`/v1/bre/rules/${ruleId}/executions`)).body.executions as any[];
        expect(list.map((e) => [e.depth, e.outcome]).sort()).toEqual([
          [0, 'succeeded'],
          [1, 'succeeded'],
          [2, 'succeeded'],
          [3, 'skipped'],
        ]);
        return list;
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    const created = (
      await db().query(
        `SELECT id, custom_input FROM checks.checks WHERE tenant_id = $1 AND custom_input LIKE 'chain-%' ORDER BY custom_input`,
        [tenant.tenantId],
      )
    ).rows;
    expect(created.map((c) => c.custom_input)).toEqual(['chain-0', 'chain-1', 'chain-2']);
    await eventually(async () => {
      const list = (await rulesApi.get(`/v1/bre/rules/${ruleId}/executions`)).body.executions as any[];
      expect(
        list
          .filter((e) => e.outcome === 'succeeded')
          .map((e) => e.created_check_id)
          .sort(),
      ).toEqual(created.map((c) => c.id).sort());
    });
    expect(executions.find((e) => e.depth === 3).error).toContain('depth limit');
  });
});
