import { PERMISSIONS } from '@kyc/contracts';
import { ApiClient, createRoleUser, createTenant, db, eventually } from '@kyc/testing';

import { ChecksResources, useChecksResources } from './check-resources.setup';

/** Reading and deleting a check: details, summary, attachments, deletion, role access rules, OpenAPI. */
describe('checks: details, summary, attachments, deletion, access rules', () => {
  const ctx = useChecksResources();
  const { runCheck } = ctx;
  let checks: ChecksResources['checks'];
  let account: ChecksResources['account'];
  let api: ChecksResources['api'];
  let other: ChecksResources['other'];
  beforeAll(() => {
    ({ checks, account, api, other } = ctx);
  });

  describe('details, summary, attachments, deletion', () => {
    let checkId: string;
    beforeAll(async () => {
      checkId = (
        await runCheck(api, {
          country: 'CO',
          type: 'person',
          national_id: '1000000002',
          first_name: 'Carlos Andrés',
          last_name: 'Rojas Pérez',
        })
      ).check_id;
    });

    it('pages the details of a check (one per database) with start_key', async () => {
      const first = await api.get(`/v1/checks/${checkId}/details`);
      expect(first.status).toBe(200);
      expect(first.body.details).toHaveLength(10);
      expect(first.body.self).toContain(`/v1/checks/${checkId}/details`);
      expect(first.body.next).toContain('start_key=');
      const next = new URL(first.body.next);
      const second = await api.get(next.pathname + next.search);
      expect(second.body.next).toBeUndefined();
      const all = [...first.body.details, ...second.body.details];
      expect(new Set(all.map((d: any) => d.id)).size).toBe(all.length);
      expect(all.length).toBe(
        (await db().query(`SELECT count(*)::int AS n FROM checks.check_databases WHERE check_id = $1`, [checkId]))
          .rows[0].n,
      );
      expect(all[0]).toMatchObject({
        id: expect.stringMatching(/^DTL/),
        check_id: checkId,
        database_name: expect.any(String),
        data_set: expect.any(String),
        result: expect.any(String),
        group: expect.any(String),
        score: expect.any(Number),
        tables: expect.any(Array),
      });
    });

    it('translates the labels with lang (default: the database’s own language) and refuses other languages', async () => {
      const police = async (lang?: string) => {
        const res = await api.get(`/v1/checks/${checkId}/details${lang ? `?lang=${lang}` : ''}`);
        const next = res.body.next
          ? (await api.get(new URL(res.body.next).pathname + new URL(res.body.next).search)).body.details
          : [];
        return [...res.body.details, ...next].find((d: any) => d.database_id === 'sandbox-co-police');
      };
      const es = await police();
      expect(es).toMatchObject({
        result: 'found',
        severity: 'high',
        group: 'legal',
        tables: [
          {
            title: 'Antecedente penal',
            rows: [{ cells: expect.arrayContaining([{ label: 'Delito', value: 'Hurto calificado' }]) }],
          },
        ],
      });
      expect((await police('en')).tables[0]).toMatchObject({
        title: 'Criminal record',
        rows: [{ cells: expect.arrayContaining([{ label: 'Offense', value: 'Hurto calificado' }]) }],
      });
      expect((await police('pt')).tables[0].title).toBe('Antecedente criminal');
      const bad = await api.get(`/v1/checks/${checkId}/details?lang=fr`);
      expect(bad.status).toBe(400);
      expect(bad.body.fields).toEqual([{ field: 'lang', message: expect.any(String) }]);
    });

    it('summarizes a check (names found, identity status, gender, …)', async () => {
      const dead = await runCheck(api, { country: 'CO', type: 'person', national_id: '1000000006' });
      const res = await api.get(`/v1/checks/${dead.check_id}/summarize`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        check_id: dead.check_id,
        summary: {
          identity_status: 'dead',
          death_date: '2021-11-10T00:00:00Z',
          gender: 'male',
          names_found: [expect.objectContaining({ first_name: 'Pedro Pablo', last_name: 'Martínez Castro' })],
        },
      });
      const vehicle = await runCheck(api, { country: 'CO', type: 'vehicle', license_plate: 'XYZ987' });
      expect((await api.get(`/v1/checks/${vehicle.check_id}/summarize`)).body.vehicle_summary).toMatchObject({
        vehicle_status: 'found',
        manufacturer: 'Renault',
        license_plate: 'XYZ987',
      });
      expect(vehicle.scores.find((s: any) => s.data_set === 'vehicle_information')).toMatchObject({
        result: 'found',
        severity: 'very_high',
      });
    });

    it('lists the attachments the databases issued', async () => {
      const res = await api.get(`/v1/checks/${checkId}/attachments`);
      expect(res.status).toBe(200);
      expect(res.body.attachments).toEqual([
        expect.objectContaining({
          database_id: 'sandbox-co-police',
          content_type: 'text/plain',
          file_name: expect.any(String),
        }),
      ]);
      expect(Buffer.from(res.body.attachments[0].content, 'base64').toString()).toContain('SANDBOX CERTIFICATE');
    });

    it('keeps every check endpoint tenant-scoped: another tenant gets 404 and changes nothing', async () => {
      for (const path of [
        `/v1/checks/${checkId}`,
        `/v1/checks/${checkId}/details`,
        `/v1/checks/${checkId}/summarize`,
        `/v1/checks/${checkId}/attachments`,
      ]) {
        const res = await other.get(path);
        expect([path, res.status, res.body.error_code]).toEqual([path, 404, 'check_not_found']);
      }
      expect((await other.delete(`/v1/checks/${checkId}`)).status).toBe(404);
      expect((await api.get(`/v1/checks/${checkId}`)).status).toBe(200);
    });

    it('deletes a check with its databases', async () => {
      const res = await api.delete(`/v1/checks/${checkId}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ check_id: checkId, deleted: true });
      expect((await api.get(`/v1/checks/${checkId}`)).status).toBe(404);
      expect((await api.get(`/v1/checks/${checkId}/details`)).status).toBe(404);
      expect(
        (await db().query(`SELECT count(*)::int AS n FROM checks.check_databases WHERE check_id = $1`, [checkId]))
          .rows[0].n,
      ).toBe(0);
      expect((await api.delete(`/v1/checks/${checkId}`)).status).toBe(404);
    });

    it('filters the list by report_id', async () => {
      const inReport = await runCheck(api, {
        country: 'CO',
        type: 'person',
        national_id: '1000000001',
        report_id: 'RPT-1',
      });
      await runCheck(api, { country: 'CO', type: 'person', national_id: '1000000001' });
      const list = await api.get('/v1/checks?report_id=RPT-1');
      expect(list.body.checks.map((c: any) => c.check_id)).toEqual([inReport.check_id]);
      expect((await other.get('/v1/checks?report_id=RPT-1')).body.checks).toEqual([]);
    });
  });

  it('applies the role access rules (JSON-Logic) of the caller to every check read', async () => {
    const t = await createTenant(account.url, [checks.url]);
    const admin = new ApiClient(checks.url, t.apiKey);
    const co = await runCheck(admin, { country: 'CO', type: 'person', national_id: '1000000001' });
    const mx = await runCheck(admin, { country: 'MX', type: 'person', national_id: 'ROLJ850930HDFRPN02' });
    const reader = await createRoleUser(
      account.url,
      t,
      { name: 'co_reader', permissions: PERMISSIONS, access_rules: [{ '==': [{ var: 'country' }, 'CO'] }] },
      [checks.url],
    );
    const client = new ApiClient(checks.url, reader.apiKey);
    await eventually(async () => expect((await client.get(`/v1/checks/${mx.check_id}`)).status).toBe(404), {
      timeoutMs: 2_000,
      intervalMs: 50,
    });
    expect((await client.get('/v1/checks')).body.checks.map((c: any) => c.check_id)).toEqual([co.check_id]);
    for (const path of [
      `/v1/checks/${mx.check_id}/details`,
      `/v1/checks/${mx.check_id}/summarize`,
      `/v1/checks/${mx.check_id}/attachments`,
    ])
      expect([path, (await client.get(path)).status]).toEqual([path, 404]);
    expect((await client.delete(`/v1/checks/${mx.check_id}`)).status).toBe(404);
    expect((await client.get(`/v1/checks/${co.check_id}/details`)).status).toBe(200);
    expect(
      (await db().query(`SELECT count(*)::int AS n FROM checks.checks WHERE id = $1`, [mx.check_id])).rows[0].n,
    ).toBe(1);
  });

  it('documents every new endpoint in the OpenAPI document', async () => {
    const res = await fetch(`${checks.url}/docs/openapi.json`);
    expect(res.status).toBe(200);
    const paths = Object.keys(((await res.json()) as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/v1/checks',
        '/v1/checks/{check_id}',
        '/v1/checks/{check_id}/details',
        '/v1/checks/{check_id}/summarize',
        '/v1/checks/{check_id}/attachments',
        '/v1/health',
        '/v1/checks/health',
        '/v1/webhooks/{webhook_type}',
        '/v1/config',
        '/v1/settings',
        '/v1/config/credentials',
        '/v1/config/credentials/{database_id}',
      ]),
    );
  });
});
