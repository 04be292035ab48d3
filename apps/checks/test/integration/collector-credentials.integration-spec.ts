import { randomBytes } from 'node:crypto';

import { db } from '@kyc/testing';

import { ChecksResources, useChecksResources } from './check-resources.setup';

/** Collector credentials, stored encrypted (/v1/config/credentials). */
describe('checks: collector credentials', () => {
  const ctx = useChecksResources();
  let a: ChecksResources['a'];
  let api: ChecksResources['api'];
  let other: ChecksResources['other'];
  beforeAll(() => {
    ({ a, api, other } = ctx);
  });

  describe('collector credentials (/v1/config/credentials)', () => {
    const password = `pw-${randomBytes(8).toString('hex')}`;

    it('stores them encrypted (AES-256-GCM): the password is in no column and never returned', async () => {
      const res = await api.postJson('/v1/config/credentials/sandbox-co-bureau', {
        username: 'acme-user',
        password,
        complements: { certificate_password: 'cert-secret' },
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        database_id: 'sandbox-co-bureau',
        database_name: expect.any(String),
        username: 'acme-user',
        has_complements: true,
        creation_date: expect.any(String),
        update_date: expect.any(String),
      });
      const [row] = (await db().query(`SELECT * FROM checks.collector_credentials WHERE tenant_id = $1`, [a.tenantId]))
        .rows;
      expect(row.username).toBe('acme-user');
      expect(row.secret).toMatch(/^v1\./);
      expect(JSON.stringify(row)).not.toContain(password);
      expect(JSON.stringify(row)).not.toContain('cert-secret');
      const list = await api.get('/v1/config/credentials');
      expect(list.body.credentials).toEqual([res.body]);
      expect(JSON.stringify(list.body)).not.toContain(password);
    });

    it('replaces them on a second POST', async () => {
      const res = await api.postJson('/v1/config/credentials/sandbox-co-bureau', {
        username: 'acme-2',
        password: 'another',
      });
      expect(res.body).toMatchObject({ username: 'acme-2', has_complements: false });
      expect((await api.get('/v1/config/credentials')).body.credentials).toHaveLength(1);
    });

    it.each([
      ['no password', { username: 'u' }, 'password'],
      ['no username', { password: 'p' }, 'username'],
      ['a numeric username', { username: 42, password: 'p' }, 'username'],
      ['an empty password', { username: 'u', password: '' }, 'password'],
      ['9 KB of complements', { username: 'u', password: 'p', complements: 'x'.repeat(9_000) }, 'complements'],
    ])('%s -> 400 naming %s, nothing stored', async (_, body, field) => {
      const res = await api.postJson('/v1/config/credentials/sandbox-mx-sat', body);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field)).toEqual([field]);
      expect(
        (
          await db().query(
            `SELECT count(*)::int AS n FROM checks.collector_credentials WHERE tenant_id = $1 AND database_id = 'sandbox-mx-sat'`,
            [a.tenantId],
          )
        ).rows[0].n,
      ).toBe(0);
    });

    it('answers 404 for an unknown database', async () => {
      expect(
        (await api.postJson('/v1/config/credentials/no-such-db', { username: 'u', password: 'p' })).body,
      ).toMatchObject({ code: 404, error_code: 'unknown_database' });
      expect((await api.delete('/v1/config/credentials/no-such-db')).status).toBe(404);
    });

    it('is per tenant, and deletes', async () => {
      expect((await other.get('/v1/config/credentials')).body.credentials).toEqual([]);
      expect((await other.delete('/v1/config/credentials/sandbox-co-bureau')).body).toMatchObject({
        code: 404,
        error_code: 'credential_not_found',
      });
      expect((await api.delete('/v1/config/credentials/sandbox-co-bureau')).body).toEqual({
        database_id: 'sandbox-co-bureau',
        deleted: true,
      });
      expect((await api.get('/v1/config/credentials')).body.credentials).toEqual([]);
      expect((await api.delete('/v1/config/credentials/sandbox-co-bureau')).status).toBe(404);
    });
  });
});
