import { actionsOf, api, fieldsOf, newAction, newRule, putJson, tenant, useRulesApi } from '../rules-api-fixture';

describe('rules engine API (account)', () => {
  useRulesApi();

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
      // no body at all is refused naming the body (the document marks it required); `{}` changes nothing
      const bodiless = await api.put(`/v1/bre/rules/${ruleId}/actions/${actionId}`);
      expect([bodiless.status, fieldsOf(bodiless)]).toEqual([400, ['body']]);
      expect((await putJson(api, `/v1/bre/rules/${ruleId}/actions/${actionId}`, {})).status).toBe(200);
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
});
