import { ApiClient, closeDb, createTenant, db, ServiceProcess, TestTenant } from '@kyc/testing';

import { startAccount, startCustomers, waitFor } from './support/customers-helpers';

const DAY = 86_400_000;
const PROFILES = 2000;
const EXPORT_HEADER =
  'customer_id,name,country,phone_number,email,document_type,document_number,tags,latest_check_score,latest_check_status,last_transaction_date';

/** Seeds `n` varied profiles (nulls, edges, tags, recent and old failed validations) straight into the tenant's tables. */
async function seedProfiles(tenantId: string, n: number, prefix: string): Promise<void> {
  const pick = <T>(i: number, list: readonly T[], salt = 1) => list[(i * 7919 + salt * 104729) % list.length];
  const rows = Array.from({ length: n }, (_, i) => {
    const checks = pick(i, [0, 1, 2, 3, 5], 2);
    return {
      id: `CUS${prefix}${String(i).padStart(6, '0')}`,
      name: pick(i, [null, 'Ana Perez', 'Luis Ana', 'Maria', ''], 3),
      country: pick(i, ['CO', 'MX', 'BR', null], 4),
      document_type: pick(i, ['national-id', 'passport', null, 'female'], 5),
      gender: pick(i, ['male', 'female', null], 6),
      birthday: pick(i, ['1980-05-01', '1990-01-01', '2001-12-31', null], 7),
      email: pick(i, [null, `p${i}@example.com`], 8),
      phone_number: pick(i, [null, `+57300${String(i).padStart(7, '0')}`, null], 9),
      tags: pick(i, [[], ['vip'], ['lead'], ['vip', 'churn'], ['lead', 'vip']], 10),
      checks_count: checks,
      latest_check_score: checks === 0 ? null : pick(i, [0, 0.2, 0.5, 0.75, 0.8, 1], 11),
      latest_check_status: checks === 0 ? null : pick(i, ['completed', 'error', 'delayed'], 12),
      validations_count: pick(i, [0, 1, 2, 4], 13),
      failed_validations_count: pick(i, [0, 0, 1, 2], 14),
      chats_count: pick(i, [0, 1, 3], 15),
      last_transaction_at: pick(i, [null, '2025-06-01T00:00:00Z', '2026-03-01T12:00:00Z'], 16),
      failed_recent: pick(i, [0, 1, 0, 2], 17),
      failed_old: pick(i, [0, 1], 18),
    };
  });
  await db().query(
    `INSERT INTO customers.profiles (id, tenant_id, name, country, document_type, gender, birthday, email, phone_number, tags,
        checks_count, latest_check_score, latest_check_status, validations_count, failed_validations_count, chats_count,
        transactions_count, last_transaction_at, created_at, updated_at)
     SELECT r.id, $1, r.name, r.country, r.document_type, r.gender, r.birthday, r.email, r.phone_number,
            ARRAY(SELECT jsonb_array_elements_text(r.tags)), r.checks_count, r.latest_check_score, r.latest_check_status,
            r.validations_count, r.failed_validations_count, r.chats_count, r.checks_count + r.validations_count,
            r.last_transaction_at, now(), now()
       FROM jsonb_to_recordset($2::jsonb) AS r(id text, name text, country text, document_type text, gender text, birthday text,
            email text, phone_number text, tags jsonb, checks_count int, latest_check_score float8, latest_check_status text,
            validations_count int, failed_validations_count int, chats_count int, last_transaction_at timestamptz)`,
    [tenantId, JSON.stringify(rows)],
  );
  const trx = rows.flatMap((r) => [
    ...Array.from({ length: r.failed_recent }, (_, k) => ({
      profile_id: r.id,
      n: k,
      at: new Date(Date.now() - (k + 1) * DAY),
    })),
    ...Array.from({ length: r.failed_old }, (_, k) => ({
      profile_id: r.id,
      n: 10 + k,
      at: new Date(Date.now() - 45 * DAY),
    })),
  ]);
  await db().query(
    `INSERT INTO customers.transactions (id, tenant_id, profile_id, product, source_id, event_type, status, occurred_at, data, created_at, updated_at)
     SELECT 'TRX' || md5(t.profile_id || t.n), $1, t.profile_id, 'validation', 'VLD' || md5(t.profile_id || t.n),
            'validations.validation.finished', 'failure', t.at, '{}', now(), now()
       FROM jsonb_to_recordset($2::jsonb) AS t(profile_id text, at timestamptz, n int)`,
    [tenantId, JSON.stringify(trx)],
  );
}

/** Rules over every kind of variable and operator the translation handles, and some it does not (Node fallback). */
const RULES: unknown[] = [
  { '==': [{ var: 'country' }, 'CO'] },
  { '!=': [{ var: 'country' }, 'CO'] },
  { '>=': [{ var: 'latest_check_score' }, 0.5] },
  { '<': [{ var: 'latest_check_score' }, 0.5] },
  { '<=': [0.2, { var: 'latest_check_score' }, 0.8] },
  { in: ['vip', { var: 'tags' }] },
  { in: [{ var: 'country' }, ['CO', 'MX']] },
  { and: [{ '>': [{ var: 'checks_count' }, 2] }, { '==': [{ var: 'gender' }, 'female'] }] },
  { or: [{ missing: ['name'] }, { '==': [{ var: 'latest_check_status' }, 'completed'] }] },
  { '!': [{ var: 'name' }] },
  { '!!': [{ var: 'failed_validations_count' }] },
  { '>': [{ var: 'failed_validations_30d' }, 0] },
  { '>=': [{ var: 'failed_validations_30d' }, 2] },
  { '==': [{ var: 'checks_count' }, '2'] },
  { '===': [{ var: 'checks_count' }, 2] },
  { '<': [{ var: 'birthday' }, '1990-01-01'] },
  { '==': [{ var: ['country', 'CO'] }, 'CO'] },
  { in: ['Ana', { var: 'name' }] },
  { '>=': [{ var: 'last_transaction_date' }, '2026-01-01'] },
  { '==': [{ var: 'latest_check_score' }, null] },
  { '==': [{ var: 'gender' }, { var: 'document_type' }] },
  { '<': [{ var: 'checks_count' }, { var: 'validations_count' }] },
  { missing: ['email', 'phone_number'] },
  { '!==': [{ var: 'email' }, null] },
  { and: [{ in: ['lead', { var: 'tags' }] }, { '!': { in: ['vip', { var: 'tags' }] } }] },
  true,
  { if: [{ var: 'name' }, { '>': [{ var: 'chats_count' }, 0] }, false] },
  { '>': [{ '+': [{ var: 'checks_count' }, { var: 'chats_count' }] }, 3] },
  { some: [{ var: 'tags' }, { '==': [{ var: '' }, 'churn'] }] },
  { '==': [{ cat: [{ var: 'country' }, '-', { var: 'gender' }] }, 'CO-male'] },
];

describe('segments (customers)', () => {
  let account: ServiceProcess;
  let customers: Awaited<ReturnType<typeof startCustomers>>;
  let tenant: TestTenant;
  let api: ApiClient;

  beforeAll(async () => {
    [account, customers] = await Promise.all([
      startAccount(),
      startCustomers({ CUSTOMERS_SEGMENT_SQL_CHUNK: '1000', CUSTOMERS_SEGMENT_NODE_BATCH: '250' }),
    ]);
    tenant = await createTenant(account.url, [customers.url]);
    api = new ApiClient(customers.url, tenant.apiKey);
  });

  afterAll(async () => {
    await customers?.close();
    await account?.close();
    await closeDb();
  });

  const count = async (tenantId: string) =>
    Number(
      (await db().query(`SELECT count(*) FROM customers.segments WHERE tenant_id = $1`, [tenantId])).rows[0].count,
    );
  const computed = (client: ApiClient, id: string) =>
    waitFor(async () => {
      const s = (await client.get(`/v1/customers/segments/${id}`)).body.segment;
      expect(['completed', 'failed']).toContain(s.compute.status);
      return s;
    }, 60_000);
  const members = async (client: ApiClient, id: string): Promise<string[]> => {
    const out: string[] = [];
    let path: string | undefined = `/v1/customers/segments/${id}/profiles?limit=100`;
    while (path) {
      const res: { body: any } = await client.get(path);
      out.push(...res.body.profiles.map((p: any) => p.customer_id));
      path = res.body.next?.replace(/^https?:\/\/[^/]+/, '');
    }
    return out;
  };

  describe('CRUD and refusals', () => {
    it('creates (JSON or form with the rule as JSON text), reads, updates, lists and deletes segments', async () => {
      const a = await api.postJson('/v1/customers/segments', {
        name: 'Risky CO',
        description: 'd',
        rule: { '==': [{ var: 'country' }, 'CO'] },
      });
      expect(a.status).toBe(201);
      expect(a.body.segment).toMatchObject({
        name: 'Risky CO',
        description: 'd',
        rule: { '==': [{ var: 'country' }, 'CO'] },
        compute: { status: 'not_computed' },
      });
      expect(a.body.segment.segment_id).toMatch(/^SEG[0-9a-f]{32}$/);
      const b = await api.post('/v1/customers/segments', { name: 'Form one', rule: '{"in":["vip",{"var":"tags"}]}' });
      expect([b.status, b.body.segment.rule]).toEqual([201, { in: ['vip', { var: 'tags' }] }]);
      const id = a.body.segment.segment_id;
      const put = await api.request<any>(
        'PUT',
        `/v1/customers/segments/${id}`,
        { name: 'Renamed', rule: { '>': [{ var: 'checks_count' }, 1] } },
        { 'content-type': 'application/json' },
      );
      expect(put.body.segment).toMatchObject({
        name: 'Renamed',
        description: 'd',
        rule: { '>': [{ var: 'checks_count' }, 1] },
      });
      expect((await api.get(`/v1/customers/segments/${id}`)).body.segment.name).toBe('Renamed');
      // name and rule sent as null are not given (nullable in the document): kept, never a 400 from the database
      const nulls = await api.request<any>(
        'PUT',
        `/v1/customers/segments/${id}`,
        { name: null, rule: null, description: null },
        { 'content-type': 'application/json' },
      );
      expect([nulls.status, nulls.body.segment?.name, nulls.body.segment?.rule]).toEqual([
        200,
        'Renamed',
        { '>': [{ var: 'checks_count' }, 1] },
      ]);
      const found = (await api.get('/v1/customers/segments?name=renam')).body.segments;
      expect(found.map((s: any) => s.segment_id)).toEqual([id]);
      expect((await api.delete(`/v1/customers/segments/${id}`)).status).toBe(200);
      expect((await api.get(`/v1/customers/segments/${id}`)).body.error_code).toBe('segment_not_found');
    });

    it('pages segments: limit default 20, at most 100, with start_key', async () => {
      const t = await createTenant(account.url, [customers.url]);
      const client = new ApiClient(customers.url, t.apiKey);
      for (let i = 0; i < 23; i++) await client.postJson('/v1/customers/segments', { name: `s${i}`, rule: true });
      const first = await client.get('/v1/customers/segments');
      expect(first.body.segments).toHaveLength(20);
      const rest = await client.get(first.body.next.replace(/^https?:\/\/[^/]+/, ''));
      expect(rest.body.segments).toHaveLength(3);
      expect((await client.get('/v1/customers/segments?limit=100')).body.segments).toHaveLength(23);
      expect((await api.get(`/v1/customers/segments/${first.body.segments[0].segment_id}`)).status).toBe(404);
    });

    it.each([
      [{ rule: true }, 'name'],
      [{ name: '', rule: true }, 'name'],
      [{ name: 'x'.repeat(201), rule: true }, 'name'],
      [{ name: 'n' }, 'rule'],
      [{ name: 'n', rule: { '==': [{ var: 'salary' }, 1] } }, 'rule'],
      [{ name: 'n', rule: { and: [true, { frobnicate: [1] }] } }, 'rule'],
      [{ name: 'n', rule: { '==': [1] } }, 'rule'],
      [{ name: 'n', rule: { '==': [1, 1], '!=': [1, 2] } }, 'rule'],
      [{ name: 'n', rule: true, description: 'x'.repeat(1001) }, 'description'],
    ])('refuses %j (400 naming %s), storing nothing', async (body, field) => {
      const before = await count(tenant.tenantId);
      const res = await api.postJson('/v1/customers/segments', body);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field)).toContain(field);
      expect(await count(tenant.tenantId)).toBe(before);
    });

    it('names the offending part of a rule by its path', async () => {
      const res = await api.postJson('/v1/customers/segments', {
        name: 'n',
        rule: { and: [{ '==': [{ var: 'country' }, 'CO'] }, { '>': [{ var: 'salary' }, 1] }, { frob: [] }] },
      });
      const message = res.body.fields.find((f: any) => f.field === 'rule').message;
      expect(message).toContain('and[2].frob');
      const res2 = await api.postJson('/v1/customers/segments', {
        name: 'n',
        rule: { and: [true, { '>': [{ var: 'salary' }, 1] }] },
      });
      expect(res2.body.fields[0].message).toMatch(/and\[1\]\.>\[0\]\.var\[0\]: unknown variable "salary"/);
      const form = await api.post('/v1/customers/segments', { name: 'n', rule: '{not json' });
      expect([form.status, form.body.fields[0].field]).toEqual([400, 'rule']);
    });

    it('lists the variables a rule may read, with their types, for a rule builder', async () => {
      const res = await api.get('/v1/customers/segments/variables');
      expect(res.status).toBe(200);
      const byName = Object.fromEntries(res.body.variables.map((v: any) => [v.name, v]));
      expect(byName.country).toEqual({ name: 'country', type: 'string', group: 'profile' });
      expect(byName.tags).toEqual({ name: 'tags', type: 'array', group: 'profile' });
      expect(byName.birthday).toEqual({ name: 'birthday', type: 'date', group: 'profile' });
      expect(byName.latest_check_score).toEqual({ name: 'latest_check_score', type: 'number', group: 'decision' });
      expect(byName.last_transaction_date).toMatchObject({ type: 'date', group: 'decision' });
      expect(byName.checks_30d).toMatchObject({ type: 'number', group: 'decision' });
      // Every listed variable is one a rule may read.
      const rule = { and: res.body.variables.map((v: any) => ({ '!!': [{ var: v.name }] })) };
      expect((await api.postJson('/v1/customers/segments', { name: 'all variables', rule })).status).toBe(201);
    });

    it('refuses bad updates, list queries and compute inputs', async () => {
      const id = (await api.postJson('/v1/customers/segments', { name: 'u', rule: true })).body.segment.segment_id;
      const put = await api.request<any>(
        'PUT',
        `/v1/customers/segments/${id}`,
        { rule: { var: 'nope' } },
        { 'content-type': 'application/json' },
      );
      expect([put.status, put.body.fields[0].field]).toEqual([400, 'rule']);
      expect((await api.get(`/v1/customers/segments/${id}`)).body.segment.rule).toBe(true);
      for (const q of ['limit=0', 'limit=101', 'limit=abc'])
        expect((await api.get(`/v1/customers/segments?${q}`)).body.fields[0].field).toBe('limit');
      const bad = await api.postJson(`/v1/customers/segments/${id}/compute`, { evaluation: 'gpu' });
      expect([bad.status, bad.body.fields[0].field]).toEqual([400, 'evaluation']);
      expect((await api.post('/v1/customers/segments/SEGnope/compute')).status).toBe(404);
    });
  });

  describe('compute', () => {
    let t: TestTenant;
    let client: ApiClient;

    beforeAll(async () => {
      t = await createTenant(account.url, [customers.url]);
      client = new ApiClient(customers.url, t.apiKey);
      await seedProfiles(t.tenantId, PROFILES, 'a');
    });

    it('computes as a durable job with progress in steps, refuses a second compute while one runs, and pages the members', async () => {
      const id = (
        await client.postJson('/v1/customers/segments', { name: 'CO', rule: { '==': [{ var: 'country' }, 'CO'] } })
      ).body.segment.segment_id;
      const started = await client.post(`/v1/customers/segments/${id}/compute`);
      expect(started.status).toBe(202);
      expect(started.body.segment.compute).toMatchObject({ status: 'queued', processed: 0 });
      const again = await client.post(`/v1/customers/segments/${id}/compute`);
      expect([again.status, again.body.error_code]).toEqual([409, 'compute_in_progress']);
      const edit = await client.request<any>(
        'PUT',
        `/v1/customers/segments/${id}`,
        { rule: true },
        { 'content-type': 'application/json' },
      );
      expect([edit.status, edit.body.error_code]).toEqual([409, 'compute_in_progress']);
      const done = await computed(client, id);
      const expected = (
        await db().query(`SELECT id FROM customers.profiles WHERE tenant_id = $1 AND country = 'CO' ORDER BY id`, [
          t.tenantId,
        ])
      ).rows.map((r) => r.id);
      expect(done).toMatchObject({
        members_count: expected.length,
        compute: {
          status: 'completed',
          evaluation: 'sql',
          fallback_reason: null,
          total: PROFILES,
          processed: PROFILES,
          matched: expected.length,
          progress: 1,
        },
      });
      expect(await members(client, id)).toEqual(expected);
      // A second compute replaces the members.
      await db().query(`UPDATE customers.profiles SET country = 'CO' WHERE tenant_id = $1 AND id = $2`, [
        t.tenantId,
        'CUSa000001',
      ]);
      await client.post(`/v1/customers/segments/${id}/compute`);
      await waitFor(async () =>
        expect((await client.get(`/v1/customers/segments/${id}`)).body.segment.compute.status).toBe('completed'),
      );
      const after = await members(client, id);
      expect(after).toContain('CUSa000001');
      expect(after).toHaveLength(new Set([...expected, 'CUSa000001']).size);
      const rows = await db().query(`SELECT count(*) FROM customers.segment_members WHERE segment_id = $1`, [id]);
      expect(Number(rows.rows[0].count)).toBe(after.length);
    });

    it('attack: exports the members as CSV to the owner only; another tenant gets 404', async () => {
      const id = (
        await client.postJson('/v1/customers/segments', {
          name: 'vip',
          rule: { in: ['vip', { var: 'tags' }] },
        })
      ).body.segment.segment_id;
      const before = await client.get(`/v1/customers/segments/${id}/export`);
      expect([before.status, before.body.trim()]).toEqual([200, EXPORT_HEADER]);
      await client.post(`/v1/customers/segments/${id}/compute`);
      await computed(client, id);
      const outsider = await api.get(`/v1/customers/segments/${id}/export`);
      expect([outsider.status, outsider.body.error_code]).toEqual([404, 'segment_not_found']);
      const res = await client.get(`/v1/customers/segments/${id}/export`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="segment-${id}.csv"`);
      const lines = (res.body as string).trimEnd().split('\r\n');
      expect(lines[0]).toBe(EXPORT_HEADER);
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(await members(client, id));
      const vip = lines.find((l) => l.startsWith('CUSa'))!;
      expect(vip).toMatch(/"?\[?.*vip/);
      expect((await client.get('/v1/customers/segments/SEGnope/export')).status).toBe(404);
    });

    it('gives the same members with SQL push-down and with Node evaluation for a broad set of rules; rules SQL cannot take fall back to Node and say so', async () => {
      const ids: string[] = [];
      for (const [i, rule] of RULES.entries())
        ids.push(
          (await client.postJson('/v1/customers/segments', { name: `rule ${i}`, rule })).body.segment.segment_id,
        );
      const run = async (evaluation: 'auto' | 'node') => {
        for (const id of ids)
          expect((await client.postJson(`/v1/customers/segments/${id}/compute`, { evaluation })).status).toBe(202);
        const out: { segment: any; members: string[] }[] = [];
        for (const id of ids) {
          const segment = await computed(client, id);
          expect(segment.compute.status).toBe('completed');
          out.push({ segment, members: await members(client, id) });
        }
        return out;
      };
      const auto = await run('auto');
      const node = await run('node');
      let pushedDown = 0;
      RULES.forEach((rule, i) => {
        expect({ rule, members: node[i].members }).toEqual({ rule, members: auto[i].members });
        expect(node[i].segment.compute).toMatchObject({
          evaluation: 'node',
          fallback_reason: 'Node evaluation requested',
        });
        if (auto[i].segment.compute.evaluation === 'sql') pushedDown++;
        else expect(auto[i].segment.compute.fallback_reason).toMatch(/SQL translation refused/);
      });
      // The fallback rules (if, +, some, cat) are the only ones evaluated in Node.
      expect(pushedDown).toBe(RULES.length - 4);
      for (const i of [RULES.length - 4, RULES.length - 3, RULES.length - 2, RULES.length - 1])
        expect(auto[i].segment.compute.evaluation).toBe('node');
      // Not trivial: the rules select different, non-empty, non-full sets.
      const sizes = auto.map((a) => a.members.length);
      expect(sizes.filter((n) => n > 0 && n < PROFILES).length).toBeGreaterThan(RULES.length - 3);
    }, 240_000);
  });
});
