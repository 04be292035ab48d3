import { ApiClient, closeDb, createTenant, db, RunningService, ServiceProcess, TestTenant } from '@kyc/testing';

import { startAccount, startCustomers } from './support/customers-helpers';

/** Contact properties and contacts (spec 2, Contacts): every input rule, the visible limit, keys, tenancy. */
describe('contacts API (customers)', () => {
  let account: ServiceProcess;
  let customers: RunningService;
  let tenant: TestTenant;
  let other: TestTenant;
  let api: ApiClient;
  let otherApi: ApiClient;

  beforeAll(async () => {
    [account, customers] = await Promise.all([startAccount(), startCustomers()]);
    [tenant, other] = await Promise.all([
      createTenant(account.url, [customers.url]),
      createTenant(account.url, [customers.url]),
    ]);
    api = new ApiClient(customers.url, tenant.apiKey);
    otherApi = new ApiClient(customers.url, other.apiKey);
  });

  afterAll(async () => {
    await customers?.close();
    await account?.close();
    await closeDb();
  });

  const count = async (table: string, tenantId: string) =>
    Number(
      (await db().query(`SELECT count(*) FROM customers.${table} WHERE tenant_id = $1`, [tenantId])).rows[0].count,
    );

  const expectRefused = (res: { status: number; body: any }, field: string, status = 400) => {
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code: status, message: expect.any(String) });
    if (field) expect(res.body.fields.map((f: any) => f.field)).toContain(field);
  };

  describe('contact properties', () => {
    it('creates a property of each type (enum values comma-separated) and lists them', async () => {
      const t = await createTenant(account.url, [customers.url]);
      const client = new ApiClient(customers.url, t.apiKey);
      for (const type of ['string', 'int', 'boolean', 'date', 'email']) {
        const res = await client.post('/v1/contact-properties', { name: `p_${type}`, type });
        expect(res.status).toBe(201);
        expect(res.body.contact_property).toMatchObject({ name: `p_${type}`, type, hidden: false });
        expect(res.body.contact_property.property_id).toMatch(/^CPR[0-9a-f]{32}$/);
      }
      const e = await client.post('/v1/contact-properties', {
        name: 'tier',
        type: 'enum',
        enum_values: 'gold, silver,bronze',
        hidden: 'true',
      });
      expect(e.status).toBe(201);
      expect(e.body.contact_property).toMatchObject({
        type: 'enum',
        enum_values: ['gold', 'silver', 'bronze'],
        hidden: true,
      });
      const list = await client.get('/v1/contact-properties');
      expect(list.body.contact_properties.map((p: any) => p.name)).toEqual([
        'p_string',
        'p_int',
        'p_boolean',
        'p_date',
        'p_email',
        'tier',
      ]);
    });

    it.each([
      [{ type: 'string' }, 'name'],
      [{ name: '', type: 'string' }, 'name'],
      [{ name: 'x'.repeat(101), type: 'string' }, 'name'],
      [{ name: 'p' }, 'type'],
      [{ name: 'p', type: 'decimal' }, 'type'],
      [{ name: 'p', type: 'enum' }, 'enum_values'],
      [{ name: 'p', type: 'enum', enum_values: ' , ' }, 'enum_values'],
      [{ name: 'p', type: 'enum', enum_values: 'a,a' }, 'enum_values'],
      [{ name: 'p', type: 'string', enum_values: 'a,b' }, 'enum_values'],
      [{ name: 'p', type: 'string', hidden: 'maybe' }, 'hidden'],
    ])('refuses %j (400 naming %s), storing nothing', async (body, field) => {
      const before = await count('contact_properties', tenant.tenantId);
      expectRefused(await api.post('/v1/contact-properties', body), field);
      expect(await count('contact_properties', tenant.tenantId)).toBe(before);
    });

    it('refuses a second property with the same name (409)', async () => {
      expect((await api.post('/v1/contact-properties', { name: 'Nickname', type: 'string' })).status).toBe(201);
      const dup = await api.post('/v1/contact-properties', { name: 'nickname', type: 'string' });
      expect(dup.status).toBe(409);
      expect(dup.body.error_code).toBe('contact_property_already_exists');
    });

    it('allows 25 visible properties: the 26th is refused with a clear error, a hidden one still fits', async () => {
      const t = await createTenant(account.url, [customers.url]);
      const client = new ApiClient(customers.url, t.apiKey);
      for (let i = 0; i < 25; i++)
        expect((await client.post('/v1/contact-properties', { name: `v${i}`, type: 'string' })).status).toBe(201);
      const refused = await client.post('/v1/contact-properties', { name: 'v25', type: 'string' });
      expect(refused.status).toBe(422);
      expect(refused.body.error_code).toBe('visible_properties_limit_reached');
      expect(refused.body.message).toMatch(/at most 25 visible/);
      expect(await count('contact_properties', t.tenantId)).toBe(25);
      expect(
        (await client.post('/v1/contact-properties', { name: 'v25', type: 'string', hidden: 'true' })).status,
      ).toBe(201);
    });
  });

  describe('contacts', () => {
    let props: Record<string, string>;

    beforeAll(async () => {
      props = {};
      for (const [name, type, enum_values] of [
        ['c_age', 'int'],
        ['c_vip', 'boolean'],
        ['c_since', 'date'],
        ['c_mail', 'email'],
        ['c_level', 'enum', 'low,high'],
        ['c_note', 'string'],
        ['c_secret', 'string'],
      ]) {
        const res = await api.post('/v1/contact-properties', {
          name,
          type,
          enum_values,
          hidden: name === 'c_secret' ? 'true' : undefined,
        });
        props[name] = res.body.contact_property.property_id;
      }
    });

    it('creates a contact from a form with typed custom property values, and reads it by each key type', async () => {
      const res = await api.post('/v1/contacts', {
        phone_number: '+573001110000',
        external_id: 'crm-1',
        name: 'Ana Perez',
        email: 'Ana@Example.com',
        [`custom_property_values.${props.c_age}`]: '42',
        [`custom_property_values.${props.c_vip}`]: 'true',
        [`custom_property_values.${props.c_since}`]: '2024-02-29',
        [`custom_property_values.${props.c_mail}`]: 'work@example.com',
        [`custom_property_values.${props.c_level}`]: 'high',
        [`custom_property_values.${props.c_secret}`]: 'shh',
      });
      expect(res.status).toBe(201);
      const c = res.body.contact;
      expect(c).toMatchObject({
        phone_number: '+573001110000',
        external_id: 'crm-1',
        name: 'Ana Perez',
        email: 'ana@example.com',
      });
      expect(c.custom_property_values).toEqual({
        [props.c_age]: 42,
        [props.c_vip]: true,
        [props.c_since]: '2024-02-29',
        [props.c_mail]: 'work@example.com',
        [props.c_level]: 'high',
      });
      const stored = await db().query(`SELECT custom_property_values FROM customers.contacts WHERE id = $1`, [
        c.contact_id,
      ]);
      expect(stored.rows[0].custom_property_values[props.c_secret]).toBe('shh');
      for (const [key, keyType] of [
        [c.contact_id, ''],
        [c.contact_id, '?key_type=contact_id'],
        ['%2B573001110000', '?key_type=phone_number'],
        ['crm-1', '?key_type=external_id'],
      ]) {
        const got = await api.get(`/v1/contacts/${key}${keyType}`);
        expect([got.status, got.body.contact?.contact_id]).toEqual([200, c.contact_id]);
      }
      expect((await otherApi.get(`/v1/contacts/${c.contact_id}`)).status).toBe(404);
    });

    it('accepts a JSON body and a contact with only an external id', async () => {
      const res = await api.postJson('/v1/contacts', {
        external_id: 'crm-json',
        custom_property_values: { [props.c_age]: 7, [props.c_note]: 'hello' },
      });
      expect(res.status).toBe(201);
      expect(res.body.contact).toMatchObject({ phone_number: null, external_id: 'crm-json' });
      expect(res.body.contact.custom_property_values).toEqual({ [props.c_age]: 7, [props.c_note]: 'hello' });
    });

    it.each([
      [{}, ['phone_number', 'external_id']],
      [{ phone_number: '3001234567' }, ['phone_number']],
      [{ phone_number: '+57 300 123' }, ['phone_number']],
      [{ external_id: '' }, ['external_id']],
      [{ external_id: 'x'.repeat(129) }, ['external_id']],
      [{ external_id: 'e1', email: 'not-an-email' }, ['email']],
      [{ external_id: 'e1', name: 'x'.repeat(201) }, ['name']],
      [{ external_id: 'e1', custom_property_values: '[1]' }, ['custom_property_values']],
    ])('refuses %j (400 naming %j), storing nothing', async (body, fields) => {
      const before = await count('contacts', tenant.tenantId);
      const res = await api.post('/v1/contacts', body);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field).sort()).toEqual([...fields].sort());
      expect(await count('contacts', tenant.tenantId)).toBe(before);
    });

    it('refuses custom values of the wrong type or of unknown properties, naming each', async () => {
      const before = await count('contacts', tenant.tenantId);
      const res = await api.post('/v1/contacts', {
        external_id: 'typed',
        [`custom_property_values.${props.c_age}`]: '4.5',
        [`custom_property_values.${props.c_vip}`]: 'yes',
        [`custom_property_values.${props.c_since}`]: '2023-02-29',
        [`custom_property_values.${props.c_mail}`]: 'nope',
        [`custom_property_values.${props.c_level}`]: 'medium',
        'custom_property_values.CPRunknown': 'x',
      });
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field).sort()).toEqual(
        [props.c_age, props.c_vip, props.c_since, props.c_mail, props.c_level, 'CPRunknown']
          .map((id) => `custom_property_values.${id}`)
          .sort(),
      );
      expect(res.body.fields.find((f: any) => f.field.endsWith(props.c_level)).message).toMatch(/one of low, high/);
      expect(await count('contacts', tenant.tenantId)).toBe(before);
    });

    it('refuses a duplicate phone number or external id (409)', async () => {
      await api.post('/v1/contacts', { phone_number: '+573009990000' });
      const dup = await api.post('/v1/contacts', { phone_number: '+573009990000' });
      expect([dup.status, dup.body.error_code]).toEqual([409, 'contact_already_exists']);
      expect((await otherApi.post('/v1/contacts', { phone_number: '+573009990000' })).status).toBe(201);
    });

    it('updates name, e-mail and values (null removes one) by external id, and validates them', async () => {
      const created = (
        await api.post('/v1/contacts', { external_id: 'upd-1', [`custom_property_values.${props.c_age}`]: '30' })
      ).body.contact;
      const res = await api.request<any>(
        'PUT',
        '/v1/contacts/upd-1?key_type=external_id',
        {
          name: 'New Name',
          email: 'new@example.com',
          custom_property_values: { [props.c_age]: null, [props.c_vip]: false },
        },
        { 'content-type': 'application/json' },
      );
      expect(res.status).toBe(200);
      expect(res.body.contact).toMatchObject({
        contact_id: created.contact_id,
        name: 'New Name',
        email: 'new@example.com',
      });
      expect(res.body.contact.custom_property_values).toEqual({ [props.c_vip]: false });
      const bad = await api.put(`/v1/contacts/${created.contact_id}`, {
        email: 'x',
        [`custom_property_values.${props.c_age}`]: 'old',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.fields.map((f: any) => f.field).sort()).toEqual(['email']);
      const bad2 = await api.put(`/v1/contacts/${created.contact_id}`, {
        [`custom_property_values.${props.c_age}`]: 'old',
      });
      expect(bad2.body.fields.map((f: any) => f.field)).toEqual([`custom_property_values.${props.c_age}`]);
      // no body at all is refused naming the body (the document marks it required)
      const bodiless = await api.put(`/v1/contacts/${created.contact_id}`);
      expect([bodiless.status, bodiless.body.fields?.map((f: any) => f.field)]).toEqual([400, ['body']]);
      // null clears the e-mail (nullable in the document), never a 500
      const nulls = await api.request<any>(
        'PUT',
        `/v1/contacts/${created.contact_id}`,
        { email: null, custom_property_values: null },
        { 'content-type': 'application/json' },
      );
      expect([nulls.status, nulls.body.contact?.email]).toEqual([200, null]);
      const list = await api.request<any>('PUT', `/v1/contacts/${created.contact_id}`, [null, null], {
        'content-type': 'application/json',
      });
      expect([list.status, list.body.fields?.map((f: any) => f.field)]).toEqual([400, ['body']]);
      const after = (await api.get(`/v1/contacts/${created.contact_id}`)).body.contact;
      expect(after).toMatchObject({ name: 'New Name', email: null, custom_property_values: { [props.c_vip]: false } });
    });

    it('refuses an unknown key_type and answers 404 for unknown contacts', async () => {
      expectRefused(await api.get('/v1/contacts/x?key_type=email'), 'key_type');
      expect((await api.get('/v1/contacts/CONnope')).status).toBe(404);
      expect((await api.get('/v1/contacts/%2B570000000000?key_type=phone_number')).body.error_code).toBe(
        'contact_not_found',
      );
    });

    it('deletes by phone number', async () => {
      await api.post('/v1/contacts', { phone_number: '+573005550000' });
      expect((await api.delete('/v1/contacts/%2B573005550000?key_type=phone_number')).status).toBe(200);
      expect((await api.get('/v1/contacts/%2B573005550000?key_type=phone_number')).status).toBe(404);
    });

    it('lists contacts with a start_key cursor', async () => {
      const t = await createTenant(account.url, [customers.url]);
      const client = new ApiClient(customers.url, t.apiKey);
      for (let i = 0; i < 5; i++) await client.post('/v1/contacts', { external_id: `list-${i}` });
      const first = await client.get('/v1/contacts?limit=3');
      expect(first.body.contacts).toHaveLength(3);
      const second = await client.get(first.body.next.replace(/^https?:\/\/[^/]+/, ''));
      expect(second.body.contacts).toHaveLength(2);
      expect(second.body.next).toBeUndefined();
      const ids = [...first.body.contacts, ...second.body.contacts].map((c: any) => c.external_id).sort();
      expect(ids).toEqual(['list-0', 'list-1', 'list-2', 'list-3', 'list-4']);
      expectRefused(await client.get('/v1/contacts?start_key=bogus'), 'start_key');
    });

    it("attack: a search by e-mail, phone or external id never answers another tenant's contact", async () => {
      const mine = await api.post('/v1/contacts', {
        phone_number: '+573009990001',
        external_id: 'shared-crm-1',
        email: 'Shared.Person@Example.com',
      });
      const theirs = await otherApi.post('/v1/contacts', {
        phone_number: '+573009990001',
        external_id: 'shared-crm-1',
        email: 'shared.person@example.com',
      });
      const unrelated = await api.post('/v1/contacts', {
        phone_number: '+573009990002',
        external_id: 'crm-2',
        email: 'x@example.com',
      });
      expect([mine.status, theirs.status, unrelated.status]).toEqual([201, 201, 201]);
      for (const q of [
        'email=SHARED.person%40example.com',
        'phone_number=%2B573009990001',
        'external_id=shared-crm-1',
      ]) {
        const found = await api.get(`/v1/contacts?${q}`);
        expect([q, found.status, found.body.contacts.map((c: any) => c.contact_id)]).toEqual([
          q,
          200,
          [mine.body.contact.contact_id],
        ]);
      }
      const other = await otherApi.get('/v1/contacts?email=shared.person%40example.com');
      expect(other.body.contacts.map((c: any) => c.contact_id)).toEqual([theirs.body.contact.contact_id]);
    });

    it('searches contacts by e-mail, phone number or external id, refusing malformed filters', async () => {
      const t = await createTenant(account.url, [customers.url]);
      const client = new ApiClient(customers.url, t.apiKey);
      await client.post('/v1/contacts', { phone_number: '+573001110001', email: 'uno@example.com' });
      await client.post('/v1/contacts', { external_id: 'ext-2', email: 'dos@example.com' });
      expect(
        (await client.get('/v1/contacts?email=dos%40example.com')).body.contacts.map((c: any) => c.external_id),
      ).toEqual(['ext-2']);
      expect((await client.get('/v1/contacts?email=nadie%40example.com')).body.contacts).toEqual([]);
      expect(
        (await client.get('/v1/contacts?phone_number=%2B573001110001&email=uno%40example.com')).body.contacts,
      ).toHaveLength(1);
      expect(
        (await client.get('/v1/contacts?phone_number=%2B573001110001&email=dos%40example.com')).body.contacts,
      ).toEqual([]);
      expectRefused(await client.get('/v1/contacts?phone_number=3001110001'), 'phone_number');
      expectRefused(await client.get('/v1/contacts?email=not-an-email'), 'email');
    });
  });
});
