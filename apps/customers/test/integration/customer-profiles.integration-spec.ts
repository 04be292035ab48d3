import { randomUUID } from 'node:crypto';

import { ApiClient, closeDb, createTenant, db, ServiceProcess, testKafka, TestTenant } from '@kyc/testing';
import type { Producer } from 'kafkajs';

import { ProfileEventsConsumer } from '../../src/profiles/consumers/profile-events.consumer';
import {
  checkFinishedEvent,
  checkRecord,
  publish,
  startAccount,
  startChecks,
  startCustomers,
  validationFinishedEvent,
  waitFor,
} from './support/customers-helpers';

let seq = Math.floor(Math.random() * 1e6);
const nextDocument = () => String(7_000_000_000 + seq++);
const nextPhone = () => `+5731${String(seq++).padStart(8, '0')}`;

/**
 * Customer profiles built from every service's events: a real check (checks service through
 * Kafka) and a validations event (produced as the validations service would) fold into one
 * profile; identity resolution, idempotency, order, search, transactions, tags, lines, decision
 * variables, customer queries.
 */
describe('customer profiles from events (customers)', () => {
  let account: ServiceProcess;
  let checks: ServiceProcess;
  let customers: Awaited<ReturnType<typeof startCustomers>>;
  let tenant: TestTenant;
  let other: TestTenant;
  let api: ApiClient;
  let checksApi: ApiClient;
  let producer: Producer;

  beforeAll(async () => {
    [account, checks, customers] = await Promise.all([startAccount(), startChecks(), startCustomers()]);
    [tenant, other] = await Promise.all([
      createTenant(account.url, [customers.url, checks.url]),
      createTenant(account.url, [customers.url]),
    ]);
    api = new ApiClient(customers.url, tenant.apiKey);
    checksApi = new ApiClient(checks.url, tenant.apiKey);
    producer = testKafka().producer();
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await customers?.close();
    await Promise.all([checks?.close(), account?.close()]);
    await closeDb();
  });

  const byDocument = async (client: ApiClient, doc: string) =>
    (await client.get(`/v1/customers?basic_info=true&search=${doc}&search_field=document_id`)).body.customers as any[];
  const transactionsOf = async (id: string, query = '') =>
    (await api.get(`/v1/customers/${id}/transactions${query}`)).body.transactions as any[];
  const profileWith = (doc: string, transactions: number) =>
    waitFor(async () => {
      const found = await byDocument(api, doc);
      expect(found).toHaveLength(1);
      expect(await transactionsOf(found[0].id)).toHaveLength(transactions);
      return found[0];
    });

  it('end to end: a check and a validation for the same document make one profile with two transactions; a contact with its phone links to it; a segment over them computes the right members', async () => {
    const doc = nextDocument();
    const phone = nextPhone();
    const created = await checksApi.post('/v1/checks', {
      country: 'CO',
      type: 'person',
      user_authorized: 'true',
      force_creation: 'true',
      national_id: doc,
      first_name: 'Lucia',
      last_name: 'Gomez',
    });
    expect(created.status).toBe(201);
    const checkId = created.body.check.check_id;
    const afterCheck = await profileWith(doc, 1);
    expect(afterCheck).toMatchObject({
      document_number: doc,
      document_type: 'national-id',
      country: 'CO',
      name: 'Lucia Gomez',
    });

    await publish(
      producer,
      validationFinishedEvent(tenant.tenantId, {
        document_number: doc,
        country: 'CO',
        document_type: 'national-id',
        phone_number: phone,
        validation_status: 'success',
      }),
    );
    const profile = await profileWith(doc, 2);
    expect(profile.id).toBe(afterCheck.id);
    expect(profile.phone).toBe(phone);
    const trx = await transactionsOf(profile.id);
    expect(trx.map((t) => t.product).sort()).toEqual(['check', 'validation']);
    expect(trx.find((t) => t.product === 'check')).toMatchObject({ source_id: checkId, status: 'completed' });
    expect((await transactionsOf(profile.id, '?product=validation')).map((t) => t.product)).toEqual(['validation']);
    const one = await api.get(`/v1/customers/${profile.id}/transactions/${trx[0].transaction_id}`);
    expect([one.status, one.body.transaction.transaction_id]).toEqual([200, trx[0].transaction_id]);
    expect(
      (
        await db().query(`SELECT count(*) FROM customers.profiles WHERE tenant_id = $1 AND document_number = $2`, [
          tenant.tenantId,
          doc,
        ])
      ).rows[0].count,
    ).toBe('1');

    const contact = await api.post('/v1/contacts', { phone_number: phone, name: 'Lucia' });
    expect([contact.status, contact.body.contact.customer_id]).toEqual([201, profile.id]);

    // Another person: a check only.
    const otherDoc = nextDocument();
    await publish(
      producer,
      checkFinishedEvent(checkRecord(tenant.tenantId, { inputs: { national_id: otherDoc, first_name: 'Mario' } })),
    );
    await profileWith(otherDoc, 1);

    const segment = await api.postJson('/v1/customers/segments', {
      name: 'checked and validated',
      rule: {
        and: [{ '>=': [{ var: 'checks_count' }, 1] }, { '==': [{ var: 'latest_validation_status' }, 'success'] }],
      },
    });
    expect(segment.status).toBe(201);
    const id = segment.body.segment.segment_id;
    expect((await api.post(`/v1/customers/segments/${id}/compute`)).status).toBe(202);
    const done = await waitFor(async () => {
      const s = (await api.get(`/v1/customers/segments/${id}`)).body.segment;
      expect(s.compute.status).toBe('completed');
      return s;
    });
    expect(done).toMatchObject({
      members_count: 1,
      compute: { evaluation: 'sql', processed: done.compute.total, matched: 1 },
    });
    const members = (await api.get(`/v1/customers/segments/${id}/profiles`)).body.profiles;
    expect(members.map((p: any) => p.customer_id)).toEqual([profile.id]);
  });

  it('merges the profiles that come to share an identifier, records the merge, and answers the old id with the survivor', async () => {
    const doc = nextDocument();
    const phone = nextPhone();
    const email = `m${seq++}@example.com`;
    const t0 = Date.now();
    await publish(
      producer,
      checkFinishedEvent(
        checkRecord(tenant.tenantId, { inputs: { national_id: doc, first_name: 'Ana' } }),
        new Date(t0),
      ),
    );
    const first = await profileWith(doc, 1);
    await publish(
      producer,
      validationFinishedEvent(
        tenant.tenantId,
        { type: 'phone-verification', phone_number: phone, email },
        new Date(t0 + 1000),
      ),
    );
    const second = await waitFor(async () => {
      const r = (
        await api.get(`/v1/customers?basic_info=true&search=${encodeURIComponent(phone)}&search_field=phone_number`)
      ).body.customers;
      expect(r).toHaveLength(1);
      return r[0];
    });
    expect(second.id).not.toBe(first.id);
    await publish(
      producer,
      validationFinishedEvent(
        tenant.tenantId,
        { document_number: doc, country: 'CO', phone_number: phone },
        new Date(t0 + 2000),
      ),
    );
    const merged = await profileWith(doc, 3);
    expect(merged.id).toBe(first.id);
    expect(merged).toMatchObject({ phone, email });
    const old = await api.get(`/v1/customers/${second.id}`);
    expect([old.status, old.body.customer.customer_id]).toEqual([200, first.id]);
    const merges = await db().query(
      `SELECT * FROM customers.profile_merges WHERE tenant_id = $1 AND merged_profile_id = $2`,
      [tenant.tenantId, second.id],
    );
    expect(merges.rows).toEqual([expect.objectContaining({ profile_id: first.id, identifier: `phone:${phone}` })]);
    const list = (await api.get(`/v1/customers?search=${doc}`)).body.customers;
    expect(list.map((c: any) => c.customer_id)).toEqual([first.id]);
  });

  it('skips a redelivered event and keeps the newer result when an older event arrives late', async () => {
    const doc = nextDocument();
    const validationId = `VLD${randomUUID().replace(/-/g, '')}`;
    const now = Date.now();
    const newer = validationFinishedEvent(
      tenant.tenantId,
      {
        validation_id: validationId,
        document_number: doc,
        country: 'CO',
        validation_status: 'failure',
        first_name: 'New',
      },
      new Date(now),
    );
    const older = validationFinishedEvent(
      tenant.tenantId,
      {
        validation_id: validationId,
        document_number: doc,
        country: 'CO',
        validation_status: 'success',
        first_name: 'Old',
        last_name: 'Last',
      },
      new Date(now - 60_000),
    );
    await publish(producer, newer, newer, older);
    const profile = await profileWith(doc, 1);
    await waitFor(async () => {
      const r = await db().query(`SELECT count(*) FROM customers.processed_messages WHERE event_id = ANY($1)`, [
        [newer.id, older.id],
      ]);
      expect(r.rows[0].count).toBe('2');
    });
    const [trx] = await transactionsOf(profile.id);
    expect(trx).toMatchObject({ product: 'validation', source_id: validationId, status: 'failure' });
    const customer = (await api.get(`/v1/customers/${profile.id}`)).body.customer;
    expect(customer.summary).toMatchObject({
      validations_count: 1,
      failed_validations_count: 1,
      latest_validation_status: 'failure',
    });
    // Newer basic info wins; the older event only filled what was missing.
    expect(customer).toMatchObject({ first_name: 'New', last_name: 'Last' });
  });

  it('folds a topic that is not on Kafka yet through the same code path: chat tags with their history, messaging lines', async () => {
    const phone = nextPhone();
    const consumer = customers.app.get(ProfileEventsConsumer);
    const chat = (tags: string[], at: number) => ({
      id: randomUUID(),
      type: 'engagement.chat.opened',
      version: 1,
      tenant_id: tenant.tenantId,
      occurred_at: new Date(at).toISOString(),
      aggregate_id: 'CHT1',
      payload: {
        chat_id: `CHT${randomUUID().slice(0, 8)}`,
        user_phone_number: phone,
        waba_phone_number: '+5715550000',
        tags,
        contact_name: 'Chat User',
      },
    });
    await consumer.handle('engagement.chat.opened', chat(['lead'], Date.now() - 1000));
    await consumer.handle('engagement.chat.opened', chat(['lead', 'vip'], Date.now()));
    const [profile] = (
      await api.get(`/v1/customers?basic_info=true&search=${encodeURIComponent(phone)}&search_field=phone_number`)
    ).body.customers;
    expect(profile).toMatchObject({ phone, name: 'Chat User' });
    const full = (await api.get(`/v1/customers/${profile.id}`)).body.customer;
    expect(full.tags).toEqual(['lead', 'vip']);
    expect(full.summary.chats_count).toBe(2);
    const history = (await api.get(`/v1/customers/${profile.id}/tag-history`)).body.tag_history;
    expect(history.map((h: any) => [h.tag, h.action]).sort()).toEqual([
      ['lead', 'added'],
      ['vip', 'added'],
    ]);
    const lines = (await api.get(`/v1/customers/${profile.id}/waba-lines`)).body.waba_lines;
    expect(lines).toEqual([expect.objectContaining({ waba_phone_number: '+5715550000' })]);
    expect(
      (await api.get(`/v1/customers/${profile.id}/transactions?product=engagement-chat`)).body.transactions,
    ).toHaveLength(2);
  });

  describe('search and reads', () => {
    it('searches by text, by exact field, single match; other tenants see nothing', async () => {
      const doc = nextDocument();
      await publish(
        producer,
        checkFinishedEvent(
          checkRecord(tenant.tenantId, { inputs: { national_id: doc, first_name: 'Zacarias', last_name: 'Unico' } }),
        ),
      );
      const profile = await profileWith(doc, 1);
      const text = (await api.get('/v1/customers?search=zacarias')).body.customers;
      expect(text.map((c: any) => c.customer_id)).toContain(profile.id);
      expect(text[0]).toHaveProperty('summary');
      const single = await api.get(`/v1/customers?search=${doc}&single_match=true&basic_info=true`);
      expect([single.status, single.body.customer.id]).toEqual([200, profile.id]);
      expect((await api.get('/v1/customers?search=nobody-matches-this&single_match=true')).status).toBe(404);
      const many = await api.get('/v1/customers?search=a&single_match=true');
      expect([many.status, many.body.error_code]).toEqual([409, 'multiple_matches']);
      expect(await byDocument(new ApiClient(customers.url, other.apiKey), doc)).toEqual([]);
      expect((await new ApiClient(customers.url, other.apiKey).get(`/v1/customers/${profile.id}`)).status).toBe(404);
    });

    it.each([
      ['/v1/customers?search=1&search_field=document_id', 'search_field'],
      ['/v1/customers?basic_info=true&search_field=email', 'search_field'],
      ['/v1/customers?basic_info=true&search=1&search_field=name', 'search_field'],
      ['/v1/customers?basic_info=maybe', 'basic_info'],
      ['/v1/customers?single_match=1', 'single_match'],
      ['/v1/customers?limit=0', 'limit'],
      ['/v1/customers?start_key=%%%', 'start_key'],
      ['/v1/customers/CUSx/transactions?product=loan', 'product'],
    ])('refuses %s (400 naming %s)', async (path, field) => {
      const res = await api.get(path);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field)).toContain(field);
    });

    it('answers 404 for unknown customers and transactions', async () => {
      expect((await api.get('/v1/customers/CUSnope')).body.error_code).toBe('customer_not_found');
      expect((await api.get('/v1/customers/CUSnope/transactions')).status).toBe(404);
      const [any] = (await api.get('/v1/customers')).body.customers;
      expect((await api.get(`/v1/customers/${any.customer_id}/transactions/TRXnope`)).body.error_code).toBe(
        'transaction_not_found',
      );
    });
  });

  describe('customer queries (POST /v1/customers/query)', () => {
    it('selects the customers a JSON-Logic rule matches, pushed down to SQL', async () => {
      const doc = nextDocument();
      await publish(
        producer,
        checkFinishedEvent(checkRecord(tenant.tenantId, { score: 0.123, inputs: { national_id: doc } })),
      );
      const profile = await profileWith(doc, 1);
      const res = await api.postJson('/v1/customers/query', {
        query: { and: [{ '==': [{ var: 'latest_check_score' }, 0.123] }, { '==': [{ var: 'document_number' }, doc] }] },
      });
      expect(res.status).toBe(200);
      expect(res.body.customers.map((c: any) => c.customer_id)).toEqual([profile.id]);
    });

    it.each([
      [{}, 'query'],
      [{ query: { '==': [{ var: 'salary' }, 1] } }, 'query.==[0].var[0]'],
      [{ query: { frobnicate: [1] } }, 'query.frobnicate'],
      [{ query: { '+': [{ var: 'checks_count' }, 1] } }, 'query.+'],
      [{ query: { '==': [1, 1] }, limit: 101 }, 'limit'],
    ])('refuses %j (400 naming %s)', async (body, field) => {
      const res = await api.postJson('/v1/customers/query', body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.fields)).toContain(field.split('[')[0]);
    });
  });

  describe('decision variables', () => {
    it('lists the catalog with every filter (multi-value filters repeated) and pages it', async () => {
      const all = (await api.get('/v1/customers/decision-variables/available?limit=100')).body.decision_variables;
      expect(all.length).toBeGreaterThan(10);
      expect(all[0]).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          name: expect.any(String),
          category: expect.any(String),
          level: expect.any(Number),
          product: expect.any(String),
          data_type: expect.any(String),
          active: expect.any(Boolean),
        }),
      );
      const q = async (query: string) =>
        (await api.get(`/v1/customers/decision-variables/available?limit=100&${query}`)).body
          .decision_variables as any[];
      expect((await q('product=check')).every((v) => v.product === 'check')).toBe(true);
      expect((await q('product=check&product=process')).length).toBe(all.length);
      expect(
        (await q('data_type=boolean&data_type=date')).every((v) => ['boolean', 'date'].includes(v.data_type)),
      ).toBe(true);
      expect((await q('active=false')).map((v) => v.active)).toEqual([false]);
      expect((await q('level=1')).every((v) => v.level === 1)).toBe(true);
      expect((await q('category=risk&category=identity')).every((v) => ['risk', 'identity'].includes(v.category))).toBe(
        true,
      );
      expect((await q('name=checks_count')).map((v) => v.name)).toEqual(['checks_count']);
      expect((await q('id=DV01&id=DV02')).map((v) => v.id)).toEqual(['DV01', 'DV02']);
      expect((await q('search=score')).every((v) => `${v.name} ${v.description}`.toLowerCase().includes('score'))).toBe(
        true,
      );
      const page = await api.get('/v1/customers/decision-variables/available?limit=5');
      const next = await api.get(page.body.next.replace(/^https?:\/\/[^/]+/, ''));
      expect(next.body.decision_variables[0].id > page.body.decision_variables[4].id).toBe(true);
    });

    it('gives each customer the values derived from their transactions in the date range', async () => {
      const doc = nextDocument();
      const now = Date.now();
      await publish(
        producer,
        checkFinishedEvent(
          checkRecord(tenant.tenantId, {
            score: 0.9,
            inputs: { national_id: doc },
            update_date: new Date(now - 40 * 86_400_000).toISOString(),
          }),
          new Date(now - 40 * 86_400_000),
        ),
        checkFinishedEvent(checkRecord(tenant.tenantId, { score: 0.3, inputs: { national_id: doc } }), new Date(now)),
        validationFinishedEvent(
          tenant.tenantId,
          { document_number: doc, country: 'CO', validation_status: 'failure' },
          new Date(now),
        ),
      );
      const profile = await profileWith(doc, 3);
      const values = async (query: string) =>
        (await api.get(`/v1/customers/decision-variables?customer_id=${profile.id}&${query}`)).body;
      const recent = await values(
        'names=latest_check_score&names=checks_count&names=failed_validations_count&names=has_high_risk_check',
      );
      expect(recent.decision_variables).toEqual([
        {
          customer_id: profile.id,
          values: { latest_check_score: 0.3, checks_count: 1, failed_validations_count: 1, has_high_risk_check: true },
        },
      ]);
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const old = await values(
        `start_date=${day(now - 45 * 86_400_000)}&end_date=${day(now - 35 * 86_400_000)}&categories=risk`,
      );
      expect(old.decision_variables[0].values).toMatchObject({
        latest_check_score: 0.9,
        failed_validations_count: 0,
        has_high_risk_check: false,
      });
      expect(Object.keys(old.decision_variables[0].values)).not.toContain('checks_count');
    });

    it.each([
      ['start_date=2026-13-01', 'start_date'],
      ['start_date=2026-02-30', 'start_date'],
      ['end_date=yesterday', 'end_date'],
      ['start_date=2026-02-01&end_date=2026-01-01', 'end_date'],
      ['categories=weather', 'categories'],
    ])('refuses values with %s (400 naming %s)', async (query, field) => {
      const res = await api.get(`/v1/customers/decision-variables?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field)).toContain(field);
    });

    it.each([
      ['active=yes', 'active'],
      ['product=validation', 'product'],
      ['data_type=json', 'data_type'],
      ['level=high', 'level'],
      ['category=weather', 'category'],
    ])('refuses the catalog with %s (400 naming %s)', async (query, field) => {
      const res = await api.get(`/v1/customers/decision-variables/available?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field)).toContain(field);
    });
  });
});
