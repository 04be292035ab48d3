import { randomUUID } from 'node:crypto';

import { ApiClient, db } from '@kyc/testing';

import { ProfileEventsConsumer } from '../../src/profiles/consumers/profile-events.consumer';
import {
  checkFinishedEvent,
  checkRecord,
  publish,
  validationFinishedEvent,
  waitFor,
} from './support/customers-helpers';
import {
  api,
  byDocument,
  checksApi,
  customers,
  nextDocument,
  nextPhone,
  nextSeq,
  other,
  producer,
  profileWith,
  tenant,
  transactionsOf,
  useProfilesSuite,
} from './support/profiles-fixture';

/**
 * Customer profiles built from every service's events: a real check (checks service through
 * Kafka) and a validations event (produced as the validations service would) fold into one
 * profile; identity resolution, idempotency, order, search, transactions, tags, lines, decision
 * variables, customer queries.
 */
describe('customer profiles from events (customers): folding, identity resolution, order, search', () => {
  useProfilesSuite();

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
    const email = `m${nextSeq()}@example.com`;
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

    it("attack: another tenant cannot read a profile's identities; the owner reads identifiers and merges", async () => {
      const doc = nextDocument();
      const phone = nextPhone();
      await publish(
        producer,
        checkFinishedEvent(
          checkRecord(tenant.tenantId, { inputs: { national_id: doc, first_name: 'Iris', phone_number: phone } }),
        ),
      );
      const profile = await profileWith(doc, 1);
      const theirs = await new ApiClient(customers.url, other.apiKey).get(`/v1/customers/${profile.id}/identities`);
      expect([theirs.status, theirs.body.error_code]).toEqual([404, 'customer_not_found']);
      const mine = await api.get(`/v1/customers/${profile.id}/identities`);
      expect(mine.status).toBe(200);
      expect(mine.body.identities).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ kind: 'phone', value: phone, first_seen_at: expect.any(String) }),
          expect.objectContaining({ kind: 'document', value: expect.stringContaining(doc) }),
        ]),
      );
      expect(mine.body.merges).toEqual([]);
      expect((await api.get('/v1/customers/CUSnope/identities')).status).toBe(404);
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
});
