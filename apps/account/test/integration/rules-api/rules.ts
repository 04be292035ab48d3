import {
  api,
  condition,
  count,
  fieldsOf,
  newAction,
  newRule,
  putJson,
  rulesOf,
  tenant,
  useRulesApi,
} from '../rules-api-fixture';

describe('rules engine API (account)', () => {
  useRulesApi();

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
});
