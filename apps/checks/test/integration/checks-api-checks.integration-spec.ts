import { createTenant, db, eventually } from '@kyc/testing';

import { account, api, checks, nextNumber, nextPerson, tenantA, tenantB, useChecksApi } from './checks-api-fixture';

describe('checks API through the platform (auth, envelope, tenancy, idempotency)', () => {
  useChecksApi();

  describe('checks', () => {
    it('requires user_authorized=true with a version-1 key, not with version 0', async () => {
      const { user_authorized: _, ...withoutConsent } = nextPerson();
      const v1 = await api.post('/v1/checks', withoutConsent);
      expect(v1.status).toBe(400);
      expect(v1.body.fields).toEqual([{ field: 'user_authorized', message: expect.any(String) }]);
      const v0 = await api.withKey(tenantA.apiKeyV0).post('/v1/checks', withoutConsent);
      expect(v0.status).toBe(201);
      const refused = await api
        .withKey(tenantA.apiKeyV0)
        .post('/v1/checks', { ...withoutConsent, user_authorized: 'false' });
      expect(refused.status).toBe(400);
    });

    it('creates a check, completes it through the worker and returns it by id', async () => {
      const created = await api.post('/v1/checks', nextPerson());
      expect(created.status).toBe(201);
      expect(created.body.check).toMatchObject({ country: 'CO', type: 'person', status: 'not_started', score: 0 });
      const id = created.body.check.check_id;
      const done = await eventually(async () => {
        const res = await api.get(`/v1/checks/${id}`);
        expect(res.body.check.status).toBe('completed');
        return res;
      });
      expect(done.body.check.score).toBeGreaterThanOrEqual(0);
    });

    it('answers GET /v1/checks/{id} with exactly the check the list shows, before and after it completes, for every type', async () => {
      const reportId = `same-shape-${nextNumber()}`;
      const bodies = [
        { ...nextPerson(), report_id: reportId, custom_input: 'ref-1' },
        {
          country: 'CO',
          type: 'vehicle',
          user_authorized: 'true',
          license_plate: `ABC${nextNumber() % 1000}`,
          report_id: reportId,
        },
        { country: 'CO', type: 'company', user_authorized: 'true', tax_id: String(nextNumber()), report_id: reportId },
      ];
      const created = await Promise.all(bodies.map((b) => api.post('/v1/checks', b)));
      expect(created.map((r) => r.status)).toEqual([201, 201, 201]);
      const ids = created.map((r) => r.body.check.check_id as string);
      // GET each check between two identical lists (the engine may move a check on in between).
      const sameAsList = async () => {
        for (let attempt = 0; attempt < 50; attempt++) {
          const list = async () =>
            (await api.get(`/v1/checks?report_id=${reportId}`)).body.checks as { check_id: string; status: string }[];
          const before = await list();
          const got = await Promise.all(ids.map((id) => api.get(`/v1/checks/${id}`)));
          const after = await list();
          if (JSON.stringify(before) !== JSON.stringify(after)) continue;
          got.forEach((res, i) => {
            expect(res.headers.get('content-type')).toMatch(/^application\/json/);
            expect(res.body).toEqual({
              check: after.find((c) => c.check_id === ids[i]),
              details: `/v1/checks/${ids[i]}/details`,
              self: `/v1/checks/${ids[i]}`,
            });
          });
          return after;
        }
        throw new Error('the checks kept changing between two lists');
      };
      await sameAsList();
      const done = await eventually(async () => {
        const listed = await sameAsList();
        expect(listed.map((c) => c.status)).toEqual(['completed', 'completed', 'completed']);
        return listed as any[];
      });
      expect(done.every((c) => c.scores.length > 0 && Array.isArray(c.statuses) && c.summary)).toBe(true);
    });

    it('returns the recent identical check unless force_creation is true', async () => {
      const inputs = nextPerson();
      const first = await api.post('/v1/checks', inputs);
      const again = await api.post('/v1/checks', inputs);
      expect(again.body.check.check_id).toBe(first.body.check.check_id);
      const forced = await api.post('/v1/checks', { ...inputs, force_creation: 'true' });
      expect(forced.body.check.check_id).not.toBe(first.body.check.check_id);
      // Two recent checks with these inputs now: the newest is the one returned.
      const third = await api.post('/v1/checks', inputs);
      expect(third.body.check.check_id).toBe(forced.body.check.check_id);
    });

    it('stores concurrent creations together (group commit): each its own check, event and start job; an unknown custom type fails alone', async () => {
      const bodies = Array.from({ length: 40 }, () => nextPerson());
      const responses = await Promise.all([
        ...bodies.map((b) => api.post('/v1/checks', b)),
        api.post('/v1/checks', { ...nextPerson(), type: 'no-such-type' }),
      ]);
      const bad = responses.pop()!;
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: 400, fields: [expect.objectContaining({ field: 'type' })] });
      expect(responses.map((r) => r.status)).toEqual(bodies.map(() => 201));
      const ids = responses.map((r) => r.body.check.check_id);
      expect(new Set(ids).size).toBe(40);
      responses.forEach((r, i) => expect(r.body.check.national_id).toBe(bodies[i].national_id));
      const { rows: stored } = await db().query(
        `SELECT c.id, c.inputs->>'national_id' AS national_id FROM checks.checks c WHERE c.id = ANY($1)`,
        [ids],
      );
      expect(Object.fromEntries(stored.map((s: { id: string; national_id: string }) => [s.id, s.national_id]))).toEqual(
        Object.fromEntries(ids.map((id, i) => [id, bodies[i].national_id])),
      );
      const {
        rows: [{ events }],
      } = await db().query(
        `SELECT count(*)::int AS events FROM checks.outbox WHERE type = 'checks.check.created' AND message_key = ANY($1)`,
        [ids],
      );
      // Each waits to start in checks itself (self_start), with no start job.
      const {
        rows: [{ waiting, jobs }],
      } = await db().query(
        `SELECT (SELECT count(*)::int FROM checks.checks WHERE id = ANY($1) AND self_start) AS waiting,
                (SELECT count(*)::int FROM checks.jobs WHERE queue = 'checks.start' AND payload->>'check_id' = ANY($1)) AS jobs`,
        [ids],
      );
      expect({ events, waiting, jobs }).toEqual({ events: 40, waiting: 40, jobs: 0 });
      const {
        rows: [{ unknown }],
      } = await db().query(
        `SELECT count(*)::int AS unknown FROM checks.checks WHERE tenant_id = $1 AND type = 'no-such-type'`,
        [tenantA.tenantId],
      );
      expect(unknown).toBe(0);
    });

    it('de-duplicates identical creations sent at the same time: one check, the same answer for all', async () => {
      const inputs = nextPerson();
      const responses = await Promise.all(Array.from({ length: 6 }, () => api.post('/v1/checks', inputs)));
      const ids = new Set(responses.map((r) => r.body.check?.check_id));
      expect(ids.size).toBe(1);
      const {
        rows: [{ n }],
      } = await db().query(
        `SELECT count(*)::int AS n FROM checks.checks WHERE tenant_id = $1 AND inputs->>'national_id' = $2`,
        [tenantA.tenantId, inputs.national_id],
      );
      expect(n).toBe(1);
    });

    it('never shows one tenant the checks of another (404, as if they did not exist)', async () => {
      const created = await api.post('/v1/checks', nextPerson());
      const id = created.body.check.check_id;
      const other = api.withKey(tenantB.apiKey);
      const res = await other.get(`/v1/checks/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 404, error_code: 'check_not_found' });
      const list = await other.get('/v1/checks');
      expect(list.body.checks.map((c: { check_id: string }) => c.check_id)).not.toContain(id);
    });

    it('pages the list with start_key and a next link', async () => {
      const tenant = await createTenant(account.url, [checks.url]);
      const client = api.withKey(tenant.apiKey);
      for (let i = 0; i < 23; i++) expect((await client.post('/v1/checks', nextPerson())).status).toBe(201);
      const page1 = await client.get('/v1/checks');
      expect(page1.body.checks).toHaveLength(20);
      expect(page1.body.next).toContain('start_key=');
      const page2 = await client.get(new URL(page1.body.next).pathname + new URL(page1.body.next).search);
      expect(page2.body.checks).toHaveLength(3);
      expect(page2.body.next).toBeUndefined();
      const ids = new Set([...page1.body.checks, ...page2.body.checks].map((c: { check_id: string }) => c.check_id));
      expect(ids.size).toBe(23);
    });
  });
});
