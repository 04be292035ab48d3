import { randomUUID } from 'node:crypto';

import { db } from '@kyc/testing';

import { api, envsOf, fieldsOf, newAction, newRule, otherApi, tenant, useRulesApi } from '../rules-api-fixture';

describe('rules engine API (account)', () => {
  useRulesApi();

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
      // without a body the default grace period (one day) applies
      const bodiless = await api.post('/v1/bre/signing-secret/rotate');
      expect(bodiless.status).toBe(200);
      expect(Date.parse(bodiless.body.signing_secret.previous_secret_valid_until) - Date.now()).toBeGreaterThan(
        86_000_000,
      );
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
