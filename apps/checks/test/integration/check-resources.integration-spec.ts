import { createHmac, hkdfSync, randomBytes } from 'node:crypto';

import { canonicalJson, JobQueueService, ManualClock } from '@kyc/platform';
import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  RunningService,
  serviceEnv,
  startInProcess,
  TestTenant,
} from '@kyc/testing';
import { DataSource } from 'typeorm';

import { AccessStatePublisher } from '../../../account/src/access/access-state.publisher';
import { accountService } from '../../../account/src/app.module';
import { RoleEntity } from '../../../account/src/roles/role.entity';
import { checksService } from '../../src/app.module';

/**
 * The checks API around the engine: input rules, details, summary, attachments, deletion,
 * webhooks, the database health dashboard, custom types, settings and credentials, each with its
 * bad values (400 naming the field, nothing stored) and its tenant isolation.
 */
describe('checks resources', () => {
  const clock = new ManualClock('2031-05-20T15:30:00Z');
  const env = {
    JOBS_POLL_MS: '60000',
    CHECKS_SANDBOX_LATENCY_SCALE: '0',
    CHECKS_SANDBOX_DATABASES: JSON.stringify({
      'sandbox-br-tj-national': { latency_ms: 2 * 86_400_000 },
      'sandbox-pe-police': { failure_rate: 1 },
    }),
  };
  let checks: RunningService & { app: Awaited<ReturnType<typeof startInProcess>>['app'] };
  let account: RunningService & { app: Awaited<ReturnType<typeof startInProcess>>['app'] };
  let jobs: JobQueueService;
  let a: TestTenant;
  let b: TestTenant;
  let api: ApiClient;
  let other: ApiClient;

  beforeAll(async () => {
    [account, checks] = await Promise.all([
      startInProcess('account', accountService, {
        KAFKA_CONSUMER_GROUP: `account-resources-${randomBytes(4).toString('hex')}`,
      }),
      startInProcess('checks', checksService, env, { clock }),
    ]);
    jobs = checks.app.get(JobQueueService);
    [a, b] = await Promise.all([createTenant(account.url, [checks.url]), createTenant(account.url, [checks.url])]);
    api = new ApiClient(checks.url, a.apiKey);
    other = new ApiClient(checks.url, b.apiKey);
  });

  afterAll(async () => {
    await Promise.all([checks?.close(), account?.close()]);
    await closeDb();
  });

  const count = async (table: string, tenantId: string) =>
    (await db().query(`SELECT count(*)::int AS n FROM checks.${table} WHERE tenant_id = $1`, [tenantId])).rows[0]
      .n as number;

  async function runCheck(client: ApiClient, body: Record<string, string>) {
    const res = await client.post('/v1/checks', { user_authorized: 'true', force_creation: 'true', ...body });
    expect(res.status).toBe(201);
    await jobs.drain();
    return (await client.get(`/v1/checks/${res.body.check.check_id}`)).body.check;
  }

  describe('create inputs at the HTTP boundary', () => {
    const valid = { country: 'CO', type: 'person', user_authorized: 'true', national_id: '1000000001' };

    it.each([
      [{ country: 'AR' }, 'country'],
      [{ country: undefined }, 'country'],
      [{ type: undefined }, 'type'],
      [{ user_authorized: 'maybe' }, 'user_authorized'],
      [{ custom_input: '129 characters'.padEnd(129, '.') }, 'custom_input'],
      [{ date_of_birth: '1990-02-30' }, 'date_of_birth'],
      [{ date_of_birth: '2040-01-01' }, 'date_of_birth'],
      [{ issue_date: '15/01/2010' }, 'issue_date'],
      [{ gender: 'other' }, 'gender'],
      [{ native_country: 'AR' }, 'native_country'],
      [{ native_national_id: 'V-123' }, 'native_country'],
      [{ document_type: 'cedula' }, 'document_type'],
      [{ region: 'SP' }, 'region'],
      [{ payment_date: '2025-03-31' }, 'payment_date'],
      [{ state_id: 'AB#1' }, 'state_id'],
      [{ watch: 'hourly' }, 'watch'],
      [{ imei: '12345' }, 'imei'],
      [{ phone_number: 'call me' }, 'phone_number'],
      [{ force_creation: 'sure' }, 'force_creation'],
      [{ national_id: undefined }, 'national_id'],
      [{ national_id: undefined, first_name: 'Ana' }, 'last_name'],
      [{ type: 'vehicle' }, 'license_plate'],
      [{ type: 'company' }, 'tax_id'],
      [{ country: 'BR', national_id: '12345' }, 'national_id'],
      [{ country: 'BR', national_id: undefined, first_name: 'Bruno', last_name: 'Cecatto' }, 'region'],
      [{ country: 'BR', national_id: '12345678909', region: 'XX' }, 'region'],
      [{ country: 'ALL', national_id: undefined, first_name: 'Viktor' }, 'last_name'],
      [{ country: 'ALL', type: 'vehicle', license_plate: 'ABC123' }, 'country'],
      [{ type: 'no-such-type' }, 'type'],
    ])('%j -> 400 naming %s, nothing stored', async (change, field) => {
      const before = await count('checks', a.tenantId);
      const res = await api.post('/v1/checks', { ...valid, ...change });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 400, status: 'Bad Request', message: expect.any(String) });
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(await count('checks', a.tenantId)).toBe(before);
    });

    it('refuses user_authorized=false with user_not_authorized, for key version 0 too', async () => {
      const res = await api.withKey(a.apiKeyV0).post('/v1/checks', { ...valid, user_authorized: 'false' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error_code: 'user_not_authorized',
        fields: [{ field: 'user_authorized', message: expect.any(String) }],
      });
    });

    it('refuses a custom type of another country', async () => {
      expect(
        (await api.post('/v1/config', { country: 'MX', type: 'mx-only', dataset_personal_identity: '1' })).status,
      ).toBe(201);
      const res = await api.post('/v1/checks', { ...valid, type: 'mx-only' });
      expect(res.body).toMatchObject({
        code: 400,
        error_code: 'unknown_check_type',
        fields: [{ field: 'type', message: expect.any(String) }],
      });
    });

    it('accepts the public API’s forms: lowercase country, JSON bodies, numeric IDs; normalizes state_id', async () => {
      const form = await api.post('/v1/checks', {
        ...valid,
        country: 'co',
        national_id: '29478657',
        state_id: '12.345-6*7,8',
      });
      expect(form.status).toBe(201);
      expect(form.body).toMatchObject({
        check: { country: 'CO', national_id: '29478657', state_id: '12345678' },
        details: expect.stringMatching(/\/details$/),
        self: expect.any(String),
      });
      const json = await api.postJson('/v1/checks', {
        country: 'MX',
        type: 'person',
        user_authorized: true,
        national_id: 12345678,
        watch: '2w',
        vehicle_id: '3VWFE21C04M000001',
      });
      expect(json.status).toBe(201);
      expect(json.body.check).toMatchObject({ national_id: '12345678', watch: '2w' });
    });

    it('returns the earlier check for identical inputs within the de-duplication window only', async () => {
      const body = { ...valid, national_id: '31313131' };
      const first = await api.post('/v1/checks', body);
      clock.advance(599_000);
      expect((await api.post('/v1/checks', body)).body.check.check_id).toBe(first.body.check.check_id);
      clock.advance(2_000);
      expect((await api.post('/v1/checks', body)).body.check.check_id).not.toBe(first.body.check.check_id);
    });
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
          death_date: '2021-11-10',
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

  describe('POST /v1/webhooks/{webhook_type}', () => {
    const key = Buffer.from(serviceEnv('checks').CHECKS_CREDENTIALS_KEY, 'base64');
    const secret = (type: string) => Buffer.from(hkdfSync('sha256', key, 'checks-webhooks', type, 32));
    const sign = (type: string, body: unknown, at = clock.now(), withSecret = secret(type)) => {
      const t = Math.floor(at.getTime() / 1000);
      return `t=${t},v1=${createHmac('sha256', withSecret)
        .update(`${t}.${canonicalJson(body)}`)
        .digest('hex')}`;
    };
    const hook = (type: string, body: unknown, signature?: string) =>
      new ApiClient(checks.url).postJson(
        `/v1/webhooks/${type}`,
        body,
        signature ? { 'X-Webhook-Signature': signature } : {},
      );
    let reference: string;
    let checkId: string;

    beforeAll(async () => {
      // The nation-wide search of Brazil answers asynchronously (held back two days here).
      const check = await runCheck(api, {
        country: 'BR',
        type: 'person',
        national_id: '00011122286',
        date_of_birth: '1984-04-04',
        region: 'ALL',
      });
      checkId = check.check_id;
      expect(check.status).toBe('in_progress');
      reference = (
        await db().query(
          `SELECT reference FROM checks.check_databases WHERE check_id = $1 AND database_id = 'sandbox-br-tj-national'`,
          [checkId],
        )
      ).rows[0].reference;
    });

    const answer = () => ({
      reference,
      status: 'completed',
      answer: {
        kind: 'answer',
        records: [
          {
            data_set: 'criminal_record',
            found_by: 'id',
            severity: 'medium',
            kind: 'criminal_record_entry',
            fields: [{ key: 'court', value: 'TJMG Sandbox' }],
          },
        ],
      },
    });

    it('answers 404 for a webhook type no collector declared, signed or not', async () => {
      expect((await hook('nobody', answer())).status).toBe(404);
      const res = await hook('nobody', answer(), sign('nobody', answer()));
      expect(res.body).toMatchObject({ code: 404, error_code: 'unknown_webhook_type' });
    });

    it('refuses unsigned, forged, stale and tampered calls with 401, and changes nothing', async () => {
      expect((await hook('sandbox', answer())).body).toMatchObject({
        code: 401,
        error_code: 'missing_webhook_signature',
      });
      expect(
        (await hook('sandbox', answer(), sign('sandbox', answer(), clock.now(), randomBytes(32)))).body,
      ).toMatchObject({ code: 401, error_code: 'invalid_webhook_signature' });
      expect(
        (await hook('sandbox', answer(), sign('sandbox', answer(), new Date(clock.now().getTime() - 10 * 60_000))))
          .status,
      ).toBe(401);
      expect((await hook('sandbox', answer(), sign('sandbox', { ...answer(), status: 'failed' }))).status).toBe(401);
      expect((await hook('sandbox', answer(), 'v1=abc')).status).toBe(401);
      expect((await api.get(`/v1/checks/${checkId}`)).body.check.status).toBe('in_progress');
    });

    it('refuses a signed call with an unknown reference (404) or a malformed body (400 naming the field)', async () => {
      const unknown = { ...answer(), reference: 'REFnope' };
      expect((await hook('sandbox', unknown, sign('sandbox', unknown))).body).toMatchObject({
        code: 404,
        error_code: 'unknown_webhook_reference',
      });
      const malformed = { status: 'completed' };
      expect((await hook('sandbox', malformed, sign('sandbox', malformed))).body).toMatchObject({
        code: 400,
        fields: [{ field: 'reference', message: expect.any(String) }],
      });
    });

    it('records a signed answer once: the database completes and the check finishes', async () => {
      const res = await hook('sandbox', answer(), sign('sandbox', answer()));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, outcome: 'recorded' });
      const check = (await api.get(`/v1/checks/${checkId}`)).body.check;
      expect(check.status).toBe('completed');
      expect(check.scores.find((s: any) => s.data_set === 'criminal_record')).toMatchObject({
        result: 'found',
        severity: 'medium',
      });
      const replay = await hook('sandbox', answer(), sign('sandbox', answer()));
      expect(replay.body).toEqual({ received: true, outcome: 'ignored' });
      expect(
        (
          await db().query(
            `SELECT count(*)::int AS n FROM checks.outbox WHERE message_key = $1 AND type = 'checks.check.finished'`,
            [checkId],
          )
        ).rows[0].n,
      ).toBe(1);
    });
  });

  describe('GET /v1/health', () => {
    const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

    beforeAll(async () => {
      // Peru's police database fails every time here; the identity registry answers.
      for (let i = 0; i < 3; i++)
        await runCheck(api, { country: 'PE', type: 'person', national_id: `4000000${i + 1}` });
    });

    it('computes each database’s status from the runs the collectors recorded', async () => {
      const res = await api.get(
        `/v1/health?country=PE&unixTimestampSeconds=${nowSeconds()}&unixtimezoneOffsetSeconds=-18000`,
      );
      expect(res.status).toBe(200);
      const byId = Object.fromEntries(res.body.map((d: any) => [d.database_id, d]));
      expect(Object.keys(byId).sort()).toEqual([
        'sandbox-pe-judicial',
        'sandbox-pe-police',
        'sandbox-pe-reniec',
        'sandbox-pe-sat',
        'sandbox-pe-sunarp',
        'sandbox-pe-sunat',
      ]);
      expect(byId['sandbox-pe-police']).toMatchObject({
        status: 'major_outage',
        runs: 3,
        data_sets: ['criminal_record'],
      });
      expect(byId['sandbox-pe-reniec']).toMatchObject({
        status: 'operational',
        runs: 3,
        data_sets: ['personal_identity', 'document_validation'],
      });
      expect(byId['sandbox-pe-sunarp']).toMatchObject({ status: 'undetermined', runs: 0 });
      // 15:30 UTC is 10:30 in UTC-5: that hour has the runs, later hours have not happened yet.
      expect(byId['sandbox-pe-police'].hourly_status).toHaveLength(24);
      expect(byId['sandbox-pe-police'].hourly_status[10]).toBe('major_outage');
      expect(byId['sandbox-pe-reniec'].hourly_status[10]).toBe('operational');
      expect(byId['sandbox-pe-reniec'].hourly_status[9]).toBe('undetermined');
      expect(byId['sandbox-pe-reniec'].hourly_status[11]).toBe('undetermined');
      expect(
        (
          await db().query(
            `SELECT count(*)::int AS n FROM checks.collector_runs WHERE database_id = 'sandbox-pe-police' AND outcome = 'error'`,
          )
        ).rows[0].n,
      ).toBeGreaterThanOrEqual(3);
    });

    it('gives the hourly status of another day, and answers on /v1/checks/health too', async () => {
      const yesterday = nowSeconds() - 86_400;
      const res = await api.get(
        `/v1/checks/health?country=PE&unixTimestampSeconds=${yesterday}&unixtimezoneOffsetSeconds=-18000`,
      );
      expect(res.status).toBe(200);
      for (const d of res.body)
        expect([d.database_id, d.status, new Set(d.hourly_status)]).toEqual([
          d.database_id,
          'undetermined',
          new Set(['undetermined']),
        ]);
      const alias = await api.get(
        `/v1/checks/health?country=PE&unixTimestampSeconds=${nowSeconds()}&unixtimezoneOffsetSeconds=-18000`,
      );
      expect(alias.body).toEqual(
        (await api.get(`/v1/health?country=PE&unixTimestampSeconds=${nowSeconds()}&unixtimezoneOffsetSeconds=-18000`))
          .body,
      );
      expect((await api.get('/v1/health?country=ALL')).body.map((d: any) => d.database_id).sort()).toEqual([
        'sandbox-int-media',
        'sandbox-int-sanctions',
      ]);
      expect((await api.get('/v1/health?country=AR')).body).toEqual([]);
    });

    it.each([
      ['country=pe', 'country'],
      ['unixTimestampSeconds=1', 'country'],
      ['country=PE&unixTimestampSeconds=yesterday', 'unixTimestampSeconds'],
      ['country=PE&unixtimezoneOffsetSeconds=99999', 'unixtimezoneOffsetSeconds'],
    ])('?%s -> 400 naming %s', async (query, field) => {
      const res = await api.get(`/v1/health?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field)).toContain(field);
    });

    it('needs an API key', async () => {
      expect((await api.withKey(undefined).get('/v1/health?country=PE')).status).toBe(401);
    });
  });

  describe('custom types (/v1/config)', () => {
    it('creates a type in the public ScoreConfig shape, and refuses a second one with the same name', async () => {
      const res = await api.post('/v1/config', {
        country: 'CO',
        type: 'onboarding',
        dataset_personal_identity: '0.5',
        dataset_criminal_record: '0.3',
        dataset_document_validation: '0.2',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        client_id: a.tenantId,
        config_id: expect.stringMatching(/^CFG/),
        score_configs: {
          CO: {
            onboarding: expect.arrayContaining([
              { data_set: 'personal_identity', weight: 0.5 },
              { data_set: 'criminal_record', weight: 0.3 },
              { data_set: 'document_validation', weight: 0.2 },
            ]),
          },
        },
      });
      const again = await api.post('/v1/config', { country: 'CO', type: 'onboarding', dataset_personal_identity: '1' });
      expect(again.body).toMatchObject({ code: 409, error_code: 'custom_type_exists' });
    });

    it.each([
      [{ country: 'CR' }, ['country']],
      [{ type: 'person' }, ['type']],
      [{ type: 'Vehicle' }, ['type']],
      [{ type: '' }, ['type']],
      [{ dataset_criminal_record: '1.5', dataset_personal_identity: undefined }, ['dataset_criminal_record']],
      [
        { dataset_criminal_record: '-0.5', dataset_personal_identity: '1.5' },
        ['dataset_criminal_record', 'dataset_personal_identity'],
      ],
      [{ dataset_criminal_record: 'heavy' }, ['dataset_criminal_record']],
      [{ dataset_criminal_record: '0.3' }, ['dataset_criminal_record', 'dataset_personal_identity']],
      [{ dataset_personal_identity: undefined }, ['weights']],
      [
        {
          dataset_personal_identity: '0.33333',
          dataset_criminal_record: '0.33333',
          dataset_legal_background: '0.33333',
        },
        ['dataset_criminal_record', 'dataset_legal_background', 'dataset_personal_identity'],
      ],
    ])('%j -> 400 naming %j, nothing stored', async (change, fields) => {
      const before = await count('custom_types', a.tenantId);
      const res = await api.post('/v1/config', {
        country: 'CO',
        type: 'bad-type',
        dataset_personal_identity: '1',
        ...change,
      });
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field).sort()).toEqual(fields);
      expect(await count('custom_types', a.tenantId)).toBe(before);
    });

    it('accepts weights that sum to 1 within 1e-6', async () => {
      expect(
        (
          await api.post('/v1/config', {
            country: 'PE',
            type: 'thirds',
            dataset_personal_identity: '0.3333333',
            dataset_criminal_record: '0.3333333',
            dataset_legal_background: '0.3333334',
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await api.post('/v1/config', {
            country: 'PE',
            type: 'tenths',
            dataset_personal_identity: '0.1',
            dataset_criminal_record: '0.2',
            dataset_legal_background: '0.7',
          })
        ).status,
      ).toBe(201);
    });

    it('updates with PUT (404 for an unknown type, 400 for built-ins)', async () => {
      const res = await api.put('/v1/config', { country: 'CO', type: 'onboarding', dataset_personal_identity: '1' });
      expect(res.status).toBe(200);
      expect(res.body.score_configs).toEqual({ CO: { onboarding: [{ data_set: 'personal_identity', weight: 1 }] } });
      expect(
        (await api.put('/v1/config', { country: 'CO', type: 'nothing-here', dataset_personal_identity: '1' })).body,
      ).toMatchObject({ code: 404, error_code: 'custom_type_not_found' });
      expect(
        (await api.put('/v1/config', { country: 'CO', type: 'company', dataset_personal_identity: '1' })).body,
      ).toMatchObject({ code: 400, error_code: 'built_in_type' });
    });

    it('lists the types page by page with start_key', async () => {
      const t = await createTenant(account.url, [checks.url]);
      const client = new ApiClient(checks.url, t.apiKey);
      for (let i = 0; i < 22; i++) {
        clock.advance(1);
        expect(
          (
            await client.post('/v1/config', {
              country: i % 2 ? 'MX' : 'CO',
              type: `t${i}`,
              dataset_alert_in_media: '1',
            })
          ).status,
        ).toBe(201);
      }
      const first = await client.get('/v1/config');
      const count1 = Object.values(first.body.score_configs).reduce(
        (n: number, types: any) => n + Object.keys(types).length,
        0,
      );
      expect(count1).toBe(20);
      const next = new URL(first.body.next);
      const second = await client.get(next.pathname + next.search);
      expect(
        Object.values(second.body.score_configs).reduce((n: number, types: any) => n + Object.keys(types).length, 0),
      ).toBe(2);
      expect(second.body.next).toBeUndefined();
    });

    it('deletes a type and returns the remaining ones of its country; built-ins cannot be deleted', async () => {
      expect(
        (await api.post('/v1/config', { country: 'CO', type: 'temporary', dataset_traffic_fines: '1' })).status,
      ).toBe(201);
      const res = await api.delete('/v1/config?country=CO&type=temporary');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.score_configs.CO).sort()).toEqual(['onboarding']);
      expect((await api.delete('/v1/config?country=CO&type=temporary')).body).toMatchObject({
        code: 404,
        error_code: 'custom_type_not_found',
      });
      for (const builtIn of ['person', 'vehicle', 'company'])
        expect((await api.delete(`/v1/config?country=CO&type=${builtIn}`)).body).toMatchObject({
          code: 400,
          error_code: 'built_in_type',
          fields: [{ field: 'type', message: expect.any(String) }],
        });
      expect((await api.delete('/v1/config?country=co&type=onboarding')).body.fields).toEqual([
        { field: 'country', message: expect.any(String) },
      ]);
      expect((await api.delete('/v1/config?country=CO')).body.fields).toEqual([
        { field: 'type', message: expect.any(String) },
      ]);
    });

    it('is per tenant: another tenant neither sees nor deletes them, and may reuse the name', async () => {
      expect(JSON.stringify((await other.get('/v1/config')).body.score_configs)).not.toContain('onboarding');
      expect((await other.delete('/v1/config?country=CO&type=onboarding')).status).toBe(404);
      expect(
        (await other.post('/v1/config', { country: 'CO', type: 'onboarding', dataset_alert_in_media: '1' })).status,
      ).toBe(201);
      expect((await api.get('/v1/config')).body.score_configs.CO.onboarding).toEqual([
        { data_set: 'personal_identity', weight: 1 },
      ]);
    });
  });

  describe('settings (/v1/settings)', () => {
    it('has the spec’s defaults', async () => {
      const t = await createTenant(account.url, [checks.url]);
      const res = await new ApiClient(checks.url, t.apiKey).get('/v1/settings');
      expect(res.body).toEqual({
        max_duration: null,
        names_matching_type: 'soft',
        retries: false,
        max_duration_by_country: { ALL: '48h', BR: '3h', CO: '3h', CL: '48h', MX: '3h', PE: '3h', CR: '72h' },
        update_date: null,
      });
    });

    it.each([
      [{ max_duration: '14m' }, 'max_duration'],
      [{ max_duration: '169h' }, 'max_duration'],
      [{ max_duration: '2d' }, 'max_duration'],
      [{ max_duration: '90' }, 'max_duration'],
      [{ names_matching_type: 'fuzzy' }, 'names_matching_type'],
      [{ retries: 'often' }, 'retries'],
    ])('%j -> 400 naming %s, nothing stored', async (body, field) => {
      const before = (await api.get('/v1/settings')).body;
      const res = await api.post('/v1/settings', body);
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual([{ field, message: expect.any(String) }]);
      expect((await api.get('/v1/settings')).body).toEqual(before);
    });

    it('stores what is sent and keeps the rest; retries makes the default 48 h everywhere; per tenant', async () => {
      expect((await api.post('/v1/settings', { max_duration: '15m' })).body).toMatchObject({
        max_duration: '15m',
        max_duration_by_country: { CO: '15m', CR: '15m' },
      });
      expect(
        (await api.post('/v1/settings', { max_duration: '168h', names_matching_type: 'exact' })).body,
      ).toMatchObject({ max_duration: '168h', names_matching_type: 'exact', retries: false });
      const t = await createTenant(account.url, [checks.url]);
      const fresh = new ApiClient(checks.url, t.apiKey);
      expect((await fresh.post('/v1/settings', { retries: 'true' })).body).toMatchObject({
        retries: true,
        max_duration: null,
        max_duration_by_country: { CO: '48h', CR: '48h', CL: '48h' },
      });
      expect((await api.get('/v1/settings')).body).toMatchObject({
        max_duration: '168h',
        names_matching_type: 'exact',
        retries: false,
      });
      expect((await other.get('/v1/settings')).body).toMatchObject({ max_duration: null, names_matching_type: 'soft' });
    });
  });

  it('applies the role access rules (JSON-Logic) of the caller to every check read', async () => {
    const t = await createTenant(account.url, [checks.url]);
    const client = new ApiClient(checks.url, t.apiKey);
    const co = await runCheck(client, { country: 'CO', type: 'person', national_id: '1000000001' });
    const mx = await runCheck(client, { country: 'MX', type: 'person', national_id: 'ROLJ850930HDFRPN02' });
    const ds = account.app.get(DataSource);
    await ds.transaction(async (m) => {
      await m.update(
        RoleEntity,
        { tenantId: t.tenantId, name: 'full_access' },
        { accessRules: [{ '==': [{ var: 'country' }, 'CO'] }] },
      );
      const role = await m.findOneByOrFail(RoleEntity, { tenantId: t.tenantId, name: 'full_access' });
      await account.app.get(AccessStatePublisher).roles(m, role);
    });
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
