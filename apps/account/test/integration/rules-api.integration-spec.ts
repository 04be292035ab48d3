import { randomUUID } from 'node:crypto';

import { ACCESS_EVENT_TYPES, TOPICS, userStateKey } from '@kyc/contracts';
import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  mintKey,
  RunningService,
  startInProcess,
  TestTenant,
} from '@kyc/testing';

import { accountService } from '../../src/app.module';

/**
 * The rules-engine API of the account service at the HTTP boundary (real PostgreSQL and Kafka):
 * rules with versions, actions with their per-type configuration, env vars with encrypted
 * secrets, the variables spec, the signing secret, validation (400 naming the field, nothing
 * stored), permissions, tenant isolation and the audit log.
 */
describe('rules engine API (account)', () => {
  let account: RunningService;
  let tenant: TestTenant;
  let other: TestTenant;
  let api: ApiClient;
  let otherApi: ApiClient;

  const condition = { and: [{ '==': [{ var: 'country' }, 'CO'] }, { '<': [{ var: 'score' }, 0.5] }] };
  const putJson = (client: ApiClient, path: string, body: unknown) =>
    client.request<any>('PUT', path, body, { 'content-type': 'application/json' });
  const count = async (sql: string, params: unknown[]) => (await db().query(sql, params)).rows[0].n as number;
  const rulesOf = (tenantId: string) =>
    count(`SELECT count(*)::int AS n FROM account.bre_rules WHERE tenant_id = $1`, [tenantId]);
  const actionsOf = (tenantId: string) =>
    count(`SELECT count(*)::int AS n FROM account.bre_actions WHERE tenant_id = $1`, [tenantId]);
  const envsOf = (tenantId: string) =>
    count(`SELECT count(*)::int AS n FROM account.bre_action_envs WHERE tenant_id = $1`, [tenantId]);
  const fieldsOf = (res: { body: any }) => (res.body.fields ?? []).map((f: { field: string }) => f.field).sort();

  const newRule = async (body: Record<string, unknown> = {}) => {
    const res = await api.postJson('/v1/bre/rules', {
      name: 'Risky CO checks',
      event_type: 'checks.check.finished',
      condition,
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body.rule.rule_id as string;
  };
  const newAction = async (ruleId: string, body: Record<string, unknown> = {}) => {
    const res = await api.postJson(`/v1/bre/rules/${ruleId}/actions`, {
      name: 'Notify',
      type: 'http_request',
      config: { url: 'https://hooks.example.com/kyc' },
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body.action.action_id as string;
  };

  beforeAll(async () => {
    account = await startInProcess('account', accountService, {
      KAFKA_CONSUMER_GROUP: `account-rules-api-${randomUUID().slice(0, 8)}`,
    });
    [tenant, other] = await Promise.all([createTenant(account.url), createTenant(account.url)]);
    api = new ApiClient(account.url, tenant.apiKey);
    otherApi = new ApiClient(account.url, other.apiKey);
  });

  afterAll(async () => {
    await account?.close();
    await closeDb();
  });

  describe('rules', () => {
    it('creates a rule from a JSON body (condition as an object) and from a form (condition as JSON text)', async () => {
      const json = await api.postJson('/v1/bre/rules', {
        name: '  Risky  ',
        event_type: 'checks.check.finished',
        condition,
      });
      expect(json.status).toBe(201);
      expect(json.body.rule).toMatchObject({
        rule_id: expect.stringMatching(/^RUL[0-9a-f]{32}$/),
        name: 'Risky',
        event_type: 'checks.check.finished',
        condition,
        version: 1,
        created_by: tenant.adminUserId,
      });
      const form = await api.post('/v1/bre/rules', {
        name: 'Form rule',
        event_type: 'checks.check.finished',
        condition: JSON.stringify(condition),
      });
      expect(form.status).toBe(201);
      expect(form.body.rule.condition).toEqual(condition);
      const got = await api.get(`/v1/bre/rules/${form.body.rule.rule_id}`);
      expect(got.status).toBe(200);
      expect(got.body.rule).toMatchObject({ rule_id: form.body.rule.rule_id, condition, version: 1, actions: [] });
    });

    it('keeps every version: an update makes a new one, old ones stay readable', async () => {
      const ruleId = await newRule();
      const updated = await putJson(api, `/v1/bre/rules/${ruleId}`, { condition: { '>=': [{ var: 'score' }, 0.9] } });
      expect(updated.status).toBe(200);
      expect(updated.body.rule).toMatchObject({
        version: 2,
        name: 'Risky CO checks',
        condition: { '>=': [{ var: 'score' }, 0.9] },
      });
      const renamed = await api.put(`/v1/bre/rules/${ruleId}`, { name: 'Renamed' });
      expect(renamed.body.rule).toMatchObject({ version: 3, name: 'Renamed' });
      // Nothing changed: no new version.
      expect((await api.put(`/v1/bre/rules/${ruleId}`, { name: 'Renamed' })).body.rule.version).toBe(3);
      const versions = await api.get(`/v1/bre/rules/${ruleId}/versions`);
      expect(versions.status).toBe(200);
      expect(versions.body.versions.map((v: any) => [v.version, v.name])).toEqual([
        [3, 'Renamed'],
        [2, 'Risky CO checks'],
        [1, 'Risky CO checks'],
      ]);
      const v1 = await api.get(`/v1/bre/rules/${ruleId}/versions/1`);
      expect(v1.body.version).toMatchObject({ version: 1, condition });
      expect((await api.get(`/v1/bre/rules/${ruleId}/versions/9`)).status).toBe(404);
      expect((await api.get(`/v1/bre/rules/${ruleId}/versions/x`)).status).toBe(404);
    });

    it('lists rules newest first with start_key pages', async () => {
      const before = (await api.get('/v1/bre/rules?limit=200')).body.rules.length;
      const ids = [await newRule({ name: 'p1' }), await newRule({ name: 'p2' }), await newRule({ name: 'p3' })];
      const page1 = await api.get('/v1/bre/rules?limit=2');
      expect(page1.status).toBe(200);
      expect(page1.body.rules.map((r: any) => r.rule_id)).toEqual([ids[2], ids[1]]);
      expect(page1.body.next).toContain('start_key=');
      const page2 = await api.get(new URL(page1.body.next).pathname + new URL(page1.body.next).search);
      expect(page2.body.rules[0].rule_id).toBe(ids[0]);
      expect((await api.get('/v1/bre/rules?limit=200')).body.rules).toHaveLength(before + 3);
      expect((await api.get('/v1/bre/rules?start_key=nope')).body.fields).toEqual([
        { field: 'start_key', message: expect.any(String) },
      ]);
    });

    it('deletes a rule with its actions and env vars', async () => {
      const ruleId = await newRule();
      const actionId = await newAction(ruleId);
      expect(
        (await api.post(`/v1/bre/rules/${ruleId}/actions/${actionId}/envs`, { name: 'TOKEN', value: 'x' })).status,
      ).toBe(201);
      const del = await api.delete(`/v1/bre/rules/${ruleId}`);
      expect(del).toMatchObject({ status: 200, body: { rule_id: ruleId, deleted: true } });
      expect((await api.get(`/v1/bre/rules/${ruleId}`)).status).toBe(404);
      expect((await api.delete(`/v1/bre/rules/${ruleId}`)).status).toBe(404);
      expect(await count(`SELECT count(*)::int AS n FROM account.bre_actions WHERE rule_id = $1`, [ruleId])).toBe(0);
      expect(
        await count(`SELECT count(*)::int AS n FROM account.bre_action_envs WHERE action_id = $1`, [actionId]),
      ).toBe(0);
    });

    it.each([
      ['a condition that is not JSON', { condition: '{"==": [1, ' }, ['condition'], /condition is not valid JSON/],
      [
        'an unknown operator',
        { condition: { and: [true, { regex: ['a', 'b'] }] } },
        ['condition'],
        /unknown operator "regex"/,
      ],
      [
        'an unknown operator in JSON text',
        { condition: '{"starts_with": [{"var": "name"}, "A"]}' },
        ['condition'],
        /unknown operator "starts_with"/,
      ],
      ['a wrong arity', { condition: { '==': [1] } }, ['condition'], /== takes 2 arguments/],
      ['a list instead of an expression', { condition: [{ '==': [1, 1] }] }, ['condition'], /not a list/],
      ['a missing condition', { condition: undefined }, ['condition'], /condition is required/],
      [
        'another event type',
        { event_type: 'checks.check.created' },
        ['event_type'],
        /event_type must be checks.check.finished/,
      ],
      ['no name and no event type', { name: '', event_type: undefined }, ['event_type', 'name'], /name is required/],
    ])('refuses %s with 400 naming the field, storing nothing', async (_what, body, fields, message) => {
      const before = await rulesOf(tenant.tenantId);
      const res = await api.postJson('/v1/bre/rules', {
        name: 'x',
        event_type: 'checks.check.finished',
        condition,
        ...body,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 400, error_code: 'validation_failed' });
      expect(fieldsOf(res)).toEqual(fields);
      expect(res.body.fields.map((f: any) => f.message).join(' ')).toMatch(message);
      expect(await rulesOf(tenant.tenantId)).toBe(before);
    });

    it('refuses a bad condition on update and keeps the version', async () => {
      const ruleId = await newRule();
      const res = await api.put(`/v1/bre/rules/${ruleId}`, { condition: '{"nope": 1}' });
      expect(res.status).toBe(400);
      expect(fieldsOf(res)).toEqual(['condition']);
      expect((await api.get(`/v1/bre/rules/${ruleId}`)).body.rule).toMatchObject({ version: 1, condition });
      expect(await count(`SELECT count(*)::int AS n FROM account.bre_rule_versions WHERE rule_id = $1`, [ruleId])).toBe(
        1,
      );
    });
  });

  describe('actions', () => {
    it('creates the three action types with their configuration (defaults filled in)', async () => {
      const ruleId = await newRule();
      const http = await api.postJson(`/v1/bre/rules/${ruleId}/actions`, {
        name: 'Webhook',
        type: 'http_request',
        config: {
          url: 'https://hooks.example.com/kyc/{{.check_id}}',
          headers: { 'X-Api-Key': '{{.API_KEY}}' },
          body: '{"check": {{.check_id | json}}}',
        },
      });
      expect(http.status).toBe(201);
      expect(http.body.action).toMatchObject({
        action_id: expect.stringMatching(/^ACT/),
        rule_id: ruleId,
        type: 'http_request',
        status: 'enabled',
        config: {
          url: 'https://hooks.example.com/kyc/{{.check_id}}',
          method: 'POST',
          headers: { 'X-Api-Key': '{{.API_KEY}}' },
          timeout_ms: 10000,
          max_attempts: 5,
        },
      });
      const email = await api.postJson(`/v1/bre/rules/${ruleId}/actions`, {
        name: 'Mail',
        type: 'email',
        status: 'disabled',
        config: { to: 'ops@acme.test, {{.EMAIL}}', subject: 'Check {{.check_id}}', body: 'Score {{.score}}' },
      });
      expect(email.status).toBe(201);
      expect(email.body.action).toMatchObject({
        status: 'disabled',
        config: { to: ['ops@acme.test', '{{.EMAIL}}'], cc: [], subject: 'Check {{.check_id}}' },
      });
      const check = await api.postJson(`/v1/bre/rules/${ruleId}/actions`, {
        name: 'Re-check',
        type: 'create_check',
        config: { type: 'person', country: 'CO', inputs: { national_id: '{{.national_id}}' } },
      });
      expect(check.status).toBe(201);
      const list = await api.get(`/v1/bre/rules/${ruleId}/actions`);
      expect(list.body.actions.map((a: any) => a.type)).toEqual(['http_request', 'email', 'create_check']);
      expect((await api.get(`/v1/bre/rules/${ruleId}`)).body.rule.actions).toHaveLength(3);
    });

    it('takes a form with dotted config fields (config.url, config.headers.<name>, config.inputs.<name>)', async () => {
      const ruleId = await newRule();
      const http = await api.post(`/v1/bre/rules/${ruleId}/actions`, {
        name: 'Form hook',
        type: 'http_request',
        'config.url': 'http://127.0.0.1:9/x',
        'config.method': 'put',
        'config.headers.Authorization': 'Bearer {{.TOKEN}}',
        'config.timeout_ms': '2500',
      });
      expect(http.status).toBe(201);
      expect(http.body.action.config).toMatchObject({
        url: 'http://127.0.0.1:9/x',
        method: 'PUT',
        headers: { Authorization: 'Bearer {{.TOKEN}}' },
        timeout_ms: 2500,
      });
      const check = await api.post(`/v1/bre/rules/${ruleId}/actions`, {
        name: 'Form check',
        type: 'create_check',
        'config.type': 'person',
        'config.country': 'CO',
        'config.inputs.national_id': '{{.national_id}}',
        'config.inputs.first_name': '{{.first_name}}',
      });
      expect(check.status).toBe(201);
      expect(check.body.action.config).toEqual({
        type: 'person',
        country: 'CO',
        inputs: { national_id: '{{.national_id}}', first_name: '{{.first_name}}' },
      });
      const email = await api.post(`/v1/bre/rules/${ruleId}/actions`, {
        name: 'Form mail',
        type: 'email',
        'config.to': ['a@acme.test', 'b@acme.test'],
        'config.subject': 'Hi',
        'config.body': 'Body',
      });
      expect(email.body.action.config.to).toEqual(['a@acme.test', 'b@acme.test']);
      const asText = await api.post(`/v1/bre/rules/${ruleId}/actions`, {
        name: 'Text config',
        type: 'http_request',
        config: JSON.stringify({ url: 'https://x.test' }),
      });
      expect(asText.status).toBe(201);
    });

    it.each([
      ['no config', 'http_request', undefined, ['config']],
      ['a url that is not http(s)', 'http_request', { url: 'ftp://x.test/a' }, ['config.url']],
      ['no url', 'http_request', { method: 'POST' }, ['config.url']],
      [
        'a bad method, a bad timeout and a reserved header',
        'http_request',
        { url: 'https://x.test', method: 'TRACE', timeout_ms: 99999, headers: { 'X-Signature': 'x' } },
        ['config.headers.X-Signature', 'config.method', 'config.timeout_ms'],
      ],
      ['a broken template', 'http_request', { url: 'https://x.test', body: '{"a": {{.check_id}' }, ['config.body']],
      ['an unknown template filter', 'http_request', { url: 'https://x.test/{{.check_id | upper}}' }, ['config.url']],
      ['a body with GET', 'http_request', { url: 'https://x.test', method: 'GET', body: 'x' }, ['config.body']],
      [
        'a bad e-mail address and no subject',
        'email',
        { to: ['not-an-address'], body: 'b' },
        ['config.subject', 'config.to[0]'],
      ],
      ['no recipient', 'email', { subject: 's', body: 'b' }, ['config.to']],
      [
        'an unknown check input and a bad country',
        'create_check',
        { type: 'person', country: 'XX', inputs: { shoe_size: '{{.x}}' } },
        ['config.country', 'config.inputs.shoe_size'],
      ],
      ['no check type', 'create_check', { country: 'CO' }, ['config.type']],
    ])('refuses an action with %s: 400 naming the field, nothing stored', async (_what, type, config, fields) => {
      const ruleId = await newRule();
      const before = await actionsOf(tenant.tenantId);
      const res = await api.postJson(`/v1/bre/rules/${ruleId}/actions`, {
        name: 'bad',
        type,
        ...(config === undefined ? {} : { config }),
      });
      expect(res.status).toBe(400);
      expect(fieldsOf(res)).toEqual(fields);
      expect(await actionsOf(tenant.tenantId)).toBe(before);
    });

    it('refuses an unknown type or status naming them', async () => {
      const ruleId = await newRule();
      const res = await api.postJson(`/v1/bre/rules/${ruleId}/actions`, {
        name: 'x',
        type: 'sms',
        status: 'paused',
        config: {},
      });
      expect(res.status).toBe(400);
      expect(fieldsOf(res)).toEqual(['status', 'type']);
    });

    it('updates an action: status only, a new config, and a type change that needs its config', async () => {
      const ruleId = await newRule();
      const actionId = await newAction(ruleId);
      const disabled = await api.put(`/v1/bre/rules/${ruleId}/actions/${actionId}`, { status: 'disabled' });
      expect(disabled.status).toBe(200);
      expect(disabled.body.action).toMatchObject({
        status: 'disabled',
        config: { url: 'https://hooks.example.com/kyc' },
      });
      const noConfig = await api.put(`/v1/bre/rules/${ruleId}/actions/${actionId}`, { type: 'email' });
      expect(noConfig.status).toBe(400);
      expect(fieldsOf(noConfig)).toEqual(['config']);
      const changed = await putJson(api, `/v1/bre/rules/${ruleId}/actions/${actionId}`, {
        type: 'email',
        config: { to: ['x@acme.test'], subject: 's', body: 'b' },
      });
      expect(changed.body.action).toMatchObject({ type: 'email', status: 'disabled', config: { to: ['x@acme.test'] } });
      const badConfig = await putJson(api, `/v1/bre/rules/${ruleId}/actions/${actionId}`, { config: { to: [] } });
      expect(fieldsOf(badConfig)).toEqual(['config.body', 'config.subject', 'config.to']);
      expect((await api.get(`/v1/bre/rules/${ruleId}/actions/${actionId}`)).body.action.type).toBe('email');
    });

    it('deletes an action; an unknown action or rule is 404', async () => {
      const ruleId = await newRule();
      const actionId = await newAction(ruleId);
      expect((await api.delete(`/v1/bre/rules/${ruleId}/actions/${actionId}`)).status).toBe(200);
      expect((await api.delete(`/v1/bre/rules/${ruleId}/actions/${actionId}`)).body).toMatchObject({
        code: 404,
        error_code: 'action_not_found',
      });
      expect((await api.get(`/v1/bre/rules/RULnope/actions`)).body).toMatchObject({
        code: 404,
        error_code: 'rule_not_found',
      });
      expect(
        (
          await api.postJson(`/v1/bre/rules/RULnope/actions`, {
            name: 'x',
            type: 'http_request',
            config: { url: 'https://x.test' },
          })
        ).status,
      ).toBe(404);
    });
  });

  describe('env vars', () => {
    it('stores a secret encrypted and never shows its value; plain values are shown', async () => {
      const ruleId = await newRule();
      const actionId = await newAction(ruleId);
      const base = `/v1/bre/rules/${ruleId}/actions/${actionId}/envs`;
      const secret = `sk_live_${randomUUID()}`;
      const created = await api.post(base, { name: 'API_TOKEN', value: secret, is_secret: 'true' });
      expect(created.status).toBe(201);
      expect(created.body.env).toEqual({
        name: 'API_TOKEN',
        is_secret: true,
        creation_date: expect.any(String),
        update_date: expect.any(String),
      });
      expect(JSON.stringify(created.body)).not.toContain(secret);
      expect((await api.post(base, { name: 'REGION', value: 'co-1' })).body.env).toMatchObject({
        name: 'REGION',
        is_secret: false,
        value: 'co-1',
      });
      const list = await api.get(base);
      expect(list.body.envs).toEqual([
        { name: 'API_TOKEN', is_secret: true, creation_date: expect.any(String), update_date: expect.any(String) },
        {
          name: 'REGION',
          is_secret: false,
          value: 'co-1',
          creation_date: expect.any(String),
          update_date: expect.any(String),
        },
      ]);
      const [row] = (
        await db().query(
          `SELECT value, sealed_value FROM account.bre_action_envs WHERE action_id = $1 AND name = 'API_TOKEN'`,
          [actionId],
        )
      ).rows;
      expect(row.value).toBeNull();
      expect(row.sealed_value).toMatch(/^v1\./);
      expect(row.sealed_value).not.toContain(secret);
      // Replacing the value keeps it secret; the audit log never holds it.
      expect((await api.post(base, { name: 'API_TOKEN', value: `${secret}-2`, is_secret: 'true' })).body).toMatchObject(
        { created: false },
      );
      const audit = await api.get(`/v1/account/audit-log?resource_type=env&resource_id=${actionId}/API_TOKEN`);
      expect(audit.body.entries.map((e: any) => e.action)).toEqual(['env.updated', 'env.created']);
      expect(JSON.stringify(audit.body)).not.toContain(secret);
      expect(audit.body.entries[0].changes.value).toEqual({ from: '[secret]', to: '[secret]' });
      const all = (await db().query(`SELECT changes FROM account.audit_log WHERE tenant_id = $1`, [tenant.tenantId]))
        .rows;
      expect(JSON.stringify(all)).not.toContain(secret);
    });

    it.each([['1TOKEN'], ['MY-TOKEN'], [''], ['a'.repeat(65)], ['TOKEN VALUE']])(
      'refuses the name %p with 400 naming it, nothing stored',
      async (name) => {
        const ruleId = await newRule();
        const actionId = await newAction(ruleId);
        const before = await envsOf(tenant.tenantId);
        const res = await api.post(`/v1/bre/rules/${ruleId}/actions/${actionId}/envs`, { name, value: 'v' });
        expect(res.status).toBe(400);
        expect(fieldsOf(res)).toEqual(['name']);
        expect(await envsOf(tenant.tenantId)).toBe(before);
      },
    );

    it('refuses a missing value and a bad secret flag', async () => {
      const ruleId = await newRule();
      const actionId = await newAction(ruleId);
      const res = await api.post(`/v1/bre/rules/${ruleId}/actions/${actionId}/envs`, {
        name: 'OK_NAME',
        is_secret: 'maybe',
      });
      expect(fieldsOf(res)).toEqual(['is_secret', 'value']);
    });

    it('deletes an env var; an unknown one is 404', async () => {
      const ruleId = await newRule();
      const actionId = await newAction(ruleId);
      const base = `/v1/bre/rules/${ruleId}/actions/${actionId}/envs`;
      await api.post(base, { name: 'GONE', value: 'v', is_secret: 'true' });
      expect(await api.delete(`${base}/GONE`)).toMatchObject({ status: 200, body: { name: 'GONE', deleted: true } });
      expect((await api.delete(`${base}/GONE`)).body).toMatchObject({ code: 404, error_code: 'env_not_found' });
      expect((await api.get(base)).body.envs).toEqual([]);
    });
  });

  describe('tenancy, permissions and the audit log', () => {
    it("answers 404 for another tenant's rule, action and env vars, and lists none of them", async () => {
      const ruleId = await newRule();
      const actionId = await newAction(ruleId);
      await api.post(`/v1/bre/rules/${ruleId}/actions/${actionId}/envs`, { name: 'K', value: 'v' });
      for (const res of [
        await otherApi.get(`/v1/bre/rules/${ruleId}`),
        await otherApi.put(`/v1/bre/rules/${ruleId}`, { name: 'hijack' }),
        await otherApi.delete(`/v1/bre/rules/${ruleId}`),
        await otherApi.get(`/v1/bre/rules/${ruleId}/versions`),
        await otherApi.get(`/v1/bre/rules/${ruleId}/actions`),
        await otherApi.put(`/v1/bre/rules/${ruleId}/actions/${actionId}`, { status: 'disabled' }),
        await otherApi.delete(`/v1/bre/rules/${ruleId}/actions/${actionId}`),
        await otherApi.get(`/v1/bre/rules/${ruleId}/actions/${actionId}/envs`),
        await otherApi.post(`/v1/bre/rules/${ruleId}/actions/${actionId}/envs`, { name: 'X', value: 'y' }),
        await otherApi.get(`/v1/bre/rules/${ruleId}/executions`),
      ])
        expect(res.status).toBe(404);
      expect((await otherApi.get('/v1/bre/rules?limit=200')).body.rules.map((r: any) => r.rule_id)).not.toContain(
        ruleId,
      );
      expect((await api.get(`/v1/bre/rules/${ruleId}`)).body.rule).toMatchObject({
        name: 'Risky CO checks',
        actions: [{ status: 'enabled' }],
      });
    });

    it('needs an API key (401) and the svc.users permission (403)', async () => {
      expect((await api.withKey(undefined).get('/v1/bre/rules')).status).toBe(401);
      // A default_access user (no administration), published to the access cache like account does.
      const userId = randomUUID();
      await db().query(
        `INSERT INTO account.outbox (id, topic, message_key, type, tenant_id, envelope) VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
        [
          randomUUID(),
          TOPICS.userState,
          userStateKey(tenant.tenantId, userId),
          ACCESS_EVENT_TYPES.userChanged,
          tenant.tenantId,
          JSON.stringify({
            id: randomUUID(),
            type: ACCESS_EVENT_TYPES.userChanged,
            version: 1,
            tenant_id: tenant.tenantId,
            occurred_at: new Date().toISOString(),
            aggregate_id: userStateKey(tenant.tenantId, userId),
            payload: {
              tenant_id: tenant.tenantId,
              user_id: userId,
              username: 'viewer@x.test',
              role: 'default_access',
              status: 'enabled',
            },
          }),
        ],
      );
      const viewer = api.withKey(mintKey({ tenant_id: tenant.tenantId, sub: userId }));
      await eventually(async () => expect((await viewer.get('/v1/auth/whoami')).status).toBe(200), {
        timeoutMs: 10_000,
      });
      const res = await viewer.get('/v1/bre/rules');
      expect(res.status).toBe(403);
      expect(res.body.message).toContain('svc.users');
      expect(
        (await viewer.postJson('/v1/bre/rules', { name: 'x', event_type: 'checks.check.finished', condition: true }))
          .status,
      ).toBe(403);
    });

    it('audits every change to rules and actions, with who made it', async () => {
      const ruleId = await newRule({ name: 'Audited' });
      await api.put(`/v1/bre/rules/${ruleId}`, { name: 'Audited 2' });
      const actionId = await newAction(ruleId, {
        config: { url: 'https://x.test', headers: { Authorization: 'Bearer literal-token-123' } },
      });
      await api.put(`/v1/bre/rules/${ruleId}/actions/${actionId}`, { status: 'disabled' });
      await api.delete(`/v1/bre/rules/${ruleId}/actions/${actionId}`);
      await api.delete(`/v1/bre/rules/${ruleId}`);
      const rule = await api.get(`/v1/account/audit-log?resource_type=rule&resource_id=${ruleId}`);
      expect(rule.body.entries.map((e: any) => e.action)).toEqual(['rule.deleted', 'rule.updated', 'rule.created']);
      expect(rule.body.entries[1].changes).toEqual({
        name: { from: 'Audited', to: 'Audited 2' },
        version: { from: 1, to: 2 },
      });
      expect(rule.body.entries[2]).toMatchObject({
        actor_id: tenant.adminUserId,
        changes: { condition: { to: condition } },
      });
      const action = await api.get(`/v1/account/audit-log?resource_type=action&resource_id=${actionId}`);
      expect(action.body.entries.map((e: any) => e.action)).toEqual([
        'action.deleted',
        'action.updated',
        'action.created',
      ]);
      expect(action.body.entries[1].changes).toEqual({ status: { from: 'enabled', to: 'disabled' } });
      expect(JSON.stringify(action.body)).not.toContain('literal-token-123');
    });
  });

  describe('variables spec and signing secret', () => {
    it('lists the variables of checks.check.finished with types and descriptions', async () => {
      const res = await api.get('/v1/bre/variables-spec');
      expect(res.status).toBe(200);
      const [spec] = res.body.event_types;
      expect(spec.event_type).toBe('checks.check.finished');
      const byName = Object.fromEntries(spec.variables.map((v: any) => [v.name, v]));
      for (const name of [
        'check_id',
        'tenant_id',
        'country',
        'type',
        'status',
        'score',
        'id_score',
        'homonym_score',
        'custom_input',
        'national_id',
        'first_name',
        'rule_depth',
      ])
        expect([name, typeof byName[name]?.description]).toEqual([name, 'string']);
      expect(byName.score.type).toBe('number');
      expect(res.body.condition.operators).toEqual(expect.arrayContaining(['==', 'and', 'var', 'missing', 'in']));
    });

    it('gives each tenant a signing secret and rotates it with a grace period', async () => {
      const first = await api.get('/v1/bre/signing-secret');
      expect(first.status).toBe(200);
      expect(first.body.signing_secret).toMatchObject({
        secret: expect.stringMatching(/^whsec_/),
        algorithm: 'HMAC-SHA256',
        header: 'X-Signature',
        previous_secret_valid_until: null,
      });
      expect((await api.get('/v1/bre/signing-secret')).body.signing_secret.secret).toBe(
        first.body.signing_secret.secret,
      );
      expect((await otherApi.get('/v1/bre/signing-secret')).body.signing_secret.secret).not.toBe(
        first.body.signing_secret.secret,
      );
      const rotated = await api.post('/v1/bre/signing-secret/rotate', { grace_period_seconds: '3600' });
      expect(rotated.status).toBe(200);
      expect(rotated.body.signing_secret.secret).not.toBe(first.body.signing_secret.secret);
      const until = Date.parse(rotated.body.signing_secret.previous_secret_valid_until);
      expect(until - Date.now()).toBeGreaterThan(3_500_000);
      expect(until - Date.now()).toBeLessThan(3_700_000);
      expect((await api.post('/v1/bre/signing-secret/rotate', { grace_period_seconds: '-1' })).body.fields).toEqual([
        { field: 'grace_period_seconds', message: expect.any(String) },
      ]);
      const [row] = (
        await db().query(`SELECT sealed_secret FROM account.bre_signing_secrets WHERE tenant_id = $1`, [
          tenant.tenantId,
        ])
      ).rows;
      expect(row.sealed_secret).not.toContain(rotated.body.signing_secret.secret);
    });
  });
});
