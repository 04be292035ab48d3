import { randomUUID } from 'node:crypto';

import { ACCESS_EVENT_TYPES, TOPICS, userStateKey } from '@kyc/contracts';
import { db, eventually, mintKey } from '@kyc/testing';

import { api, condition, newAction, newRule, otherApi, tenant, useRulesApi } from '../rules-api-fixture';

describe('rules engine API (account)', () => {
  useRulesApi();

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
});
