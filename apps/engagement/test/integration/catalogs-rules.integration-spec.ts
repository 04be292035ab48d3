import { ApiClient, createTenant, db } from '@kyc/testing';

import { CATALOGS, createCatalog, newCatalog, product, send } from './support/catalog-helpers';
import { ConnectedTenant, connectTenant } from './support/engagement-helpers';
import { useEngagementStack } from './support/engagement-stack';

/** Every input rule of the Catalogs endpoint table refused with a 400 (or its 404/409) and nothing stored. */
describe('catalogs: input rules', () => {
  let t: ConnectedTenant;
  let other: ConnectedTenant;
  let tenantId: string;
  let catalogId: string;

  const stack = useEngagementStack({
    consumerGroup: 'account-engagement-catalog-rules-spec',
    sandbox: { reviewDelayMs: 100, statusDelayMs: 50 },
  });

  beforeAll(async () => {
    const [a, b] = await Promise.all([
      createTenant(stack.account.url, [stack.engagement.url]),
      createTenant(stack.account.url, [stack.engagement.url]),
    ]);
    tenantId = a.tenantId;
    t = await connectTenant(new ApiClient(stack.engagement.url, a.apiKey), stack.sandbox);
    other = await connectTenant(new ApiClient(stack.engagement.url, b.apiKey), stack.sandbox);
    catalogId = await createCatalog(t.api);
    const added = await send(t.api, 'POST', `${CATALOGS}/${catalogId}/products`, { products: [product('SKU-1')] });
    expect(added.status).toBe(201);
  });

  const count = async (table: string) =>
    Number(
      (await db().query(`SELECT count(*)::int AS n FROM engagement.${table} WHERE tenant_id = $1`, [tenantId])).rows[0]
        .n,
    );
  const snapshot = async () =>
    (
      await db().query(
        `SELECT retailer_id, name, price_minor, sync_status FROM engagement.catalog_products WHERE tenant_id = $1 ORDER BY retailer_id`,
        [tenantId],
      )
    ).rows;
  const expect400 = (res: { status: number; body: any }, field: string) => {
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, status: 'Bad Request' });
    expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
  };

  describe('create and update a catalog', () => {
    it.each([
      ['catalog_name missing', { catalog_name: undefined }, 'catalog_name'],
      ['catalog_name blank', { catalog_name: '   ' }, 'catalog_name'],
      ['catalog_name over 200', { catalog_name: 'x'.repeat(201) }, 'catalog_name'],
      ['catalog_name not text', { catalog_name: 42 }, 'catalog_name'],
      ['provider_type missing', { provider_type: undefined }, 'provider_type'],
      ['provider_type not uppercase', { provider_type: 'whatsapp' }, 'provider_type'],
      ['provider_type unknown', { provider_type: 'TELEGRAM' }, 'provider_type'],
      ['vertical missing', { vertical: undefined }, 'vertical'],
      ['vertical not commerce', { vertical: 'retail' }, 'vertical'],
      ['vertical in uppercase', { vertical: 'COMMERCE' }, 'vertical'],
    ])('refuses %s, storing nothing', async (_name, overrides, field) => {
      const before = await count('catalogs');
      expect400(await send(t.api, 'POST', CATALOGS, newCatalog(overrides)), field);
      expect(await count('catalogs')).toBe(before);
    });

    it('says provider_type must be uppercase', async () => {
      const res = await send(t.api, 'POST', CATALOGS, newCatalog({ provider_type: 'whatsapp' }));
      expect(JSON.stringify(res.body.fields)).toContain('uppercase');
    });

    it.each([
      ['no field', {}, 'catalog_name'],
      ['a blank name', { catalog_name: '' }, 'catalog_name'],
      ['a lowercase provider_type', { provider_type: 'whatsapp' }, 'provider_type'],
      ['another vertical', { vertical: 'food' }, 'vertical'],
    ])('refuses an update with %s, changing nothing', async (_name, body, field) => {
      expect400(await send(t.api, 'PUT', `${CATALOGS}/${catalogId}`, body), field);
      expect((await send(t.api, 'GET', `${CATALOGS}/${catalogId}`)).body.catalog_name).toBe('Tienda Bogotá');
    });
  });

  describe('catalog ids', () => {
    const bodies: Record<string, unknown> = {
      'PUT ': { catalog_name: 'Otra' },
      'POST /link-waba': { waba_id: '123' },
      'POST /publish': { waba_id: '123' },
      'POST /products': { products: [product('Z-1')] },
      'PUT /products': { products: [{ retailer_id: 'SKU-1', price: 1 }] },
      'PATCH /products/mark-for-deletion': { retailer_ids: ['SKU-1'] },
    };
    it.each([
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['POST', '/link-waba'],
      ['PATCH', '/unlink-catalog'],
      ['POST', '/publish'],
      ['POST', '/products'],
      ['PUT', '/products'],
      ['GET', '/products'],
      ['PATCH', '/products/mark-for-deletion'],
    ])('%s %s with a catalog id that is not a UUID is a 400', async (method, suffix) => {
      const before = await snapshot();
      expect400(
        await send(t.api, method, `${CATALOGS}/not-a-uuid${suffix}`, bodies[`${method} ${suffix}`]),
        'catalog_id',
      );
      expect(await snapshot()).toEqual(before);
    });

    it("answers 404 for an unknown catalog and for another account's", async () => {
      const unknown = await send(t.api, 'GET', `${CATALOGS}/00000000-0000-4000-8000-000000000000`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error_code).toBe('catalog_not_found');
      expect((await send(other.api, 'GET', `${CATALOGS}/${catalogId}`)).status).toBe(404);
      expect((await send(other.api, 'DELETE', `${CATALOGS}/${catalogId}`)).status).toBe(404);
      expect((await send(other.api, 'GET', `${CATALOGS}/${catalogId}/products`)).status).toBe(404);
    });
  });

  describe('business account link and publish', () => {
    it.each([
      ['missing', {}],
      ['malformed', { waba_id: 'a b/c' }],
      ['too long', { waba_id: '1'.repeat(65) }],
      ['not text', { waba_id: ['1'] }],
    ])('refuses a waba_id %s', async (_name, body) => {
      expect400(await send(t.api, 'POST', `${CATALOGS}/${catalogId}/link-waba`, body), 'waba_id');
      expect400(await send(t.api, 'POST', `${CATALOGS}/${catalogId}/publish`, body), 'waba_id');
    });

    it("refuses another account's business account, leaving the catalog unlinked", async () => {
      const res = await send(t.api, 'POST', `${CATALOGS}/${catalogId}/link-waba`, { waba_id: other.wabaId });
      expect(res.status).toBe(404);
      expect(res.body.error_code).toBe('unknown_waba');
      expect((await send(t.api, 'GET', `${CATALOGS}/${catalogId}`)).body.waba_id).toBeNull();
    });

    it('refuses to unlink or publish a catalog that is not linked', async () => {
      const unlink = await send(t.api, 'PATCH', `${CATALOGS}/${catalogId}/unlink-catalog`);
      expect(unlink.status).toBe(409);
      expect(unlink.body.error_code).toBe('catalog_not_linked');
      const publish = await send(t.api, 'POST', `${CATALOGS}/${catalogId}/publish`, { waba_id: t.wabaId });
      expect(publish.status).toBe(409);
      expect(publish.body.error_code).toBe('catalog_not_linked');
      expect(stack.sandbox.catalogs().filter((c) => c.business_id === `biz${t.wabaId}`)).toEqual([]);
    });

    it('refuses to publish to a business account other than the linked one', async () => {
      const id = await createCatalog(t.api);
      expect((await send(t.api, 'POST', `${CATALOGS}/${id}/link-waba`, { waba_id: t.wabaId })).status).toBe(200);
      const res = await send(t.api, 'POST', `${CATALOGS}/${id}/publish`, { waba_id: other.wabaId });
      expect(res.status).toBe(409);
      expect(res.body.error_code).toBe('waba_not_linked_to_catalog');
    });
  });

  describe('products', () => {
    const path = () => `${CATALOGS}/${catalogId}/products`;

    it.each([
      ['products missing', {}, 'products'],
      ['products not a list', { products: 'SKU-2' }, 'products'],
      ['products empty', { products: [] }, 'products'],
      ['over 1,000 products', { products: Array.from({ length: 1001 }, (_, i) => product(`B-${i}`)) }, 'products'],
      ['retailer_id missing', { products: [product('X', { retailer_id: undefined })] }, 'products.0.retailer_id'],
      ['retailer_id with spaces', { products: [product('bad id')] }, 'products.0.retailer_id'],
      ['retailer_id over 100', { products: [product('r'.repeat(101))] }, 'products.0.retailer_id'],
      ['name missing', { products: [product('N1', { name: undefined })] }, 'products.0.name'],
      ['name over 150', { products: [product('N2', { name: 'n'.repeat(151) })] }, 'products.0.name'],
      [
        'description over 5000',
        { products: [product('D1', { description: 'd'.repeat(5001) })] },
        'products.0.description',
      ],
      ['price missing', { products: [product('P1', { price: undefined })] }, 'products.0.price'],
      ['price negative', { products: [product('P2', { price: -1 })] }, 'products.0.price'],
      ['price with 3 decimals', { products: [product('P3', { price: 1.005 })] }, 'products.0.price'],
      ['price as text', { products: [product('P4', { price: '10' })] }, 'products.0.price'],
      ['price too large', { products: [product('P5', { price: 1e11 })] }, 'products.0.price'],
      ['currency missing', { products: [product('C1', { currency: undefined })] }, 'products.0.currency'],
      ['currency lowercase', { products: [product('C2', { currency: 'cop' })] }, 'products.0.currency'],
      ['currency of 4 letters', { products: [product('C3', { currency: 'COPS' })] }, 'products.0.currency'],
      ['availability missing', { products: [product('A1', { availability: undefined })] }, 'products.0.availability'],
      ['availability unknown', { products: [product('A2', { availability: 'sold' })] }, 'products.0.availability'],
      ['condition missing', { products: [product('K1', { condition: undefined })] }, 'products.0.condition'],
      ['condition unknown', { products: [product('K2', { condition: 'broken' })] }, 'products.0.condition'],
      ['brand blank', { products: [product('B1', { brand: ' ' })] }, 'products.0.brand'],
      ['brand over 100', { products: [product('B2', { brand: 'b'.repeat(101) })] }, 'products.0.brand'],
      [
        'image_url not https',
        { products: [product('I1', { image_url: 'http://x.example.com/a.jpg' })] },
        'products.0.image_url',
      ],
      ['url not a URL', { products: [product('U1', { url: 'nope' })] }, 'products.0.url'],
      ['a retailer id twice', { products: [product('T1'), product('T1')] }, 'products.1.retailer_id'],
      ['a bad second product', { products: [product('OK-1'), product('OK-2', { price: -5 })] }, 'products.1.price'],
    ])('refuses adding with %s, storing nothing', async (_name, body, field) => {
      const before = await snapshot();
      expect400(await send(t.api, 'POST', path(), body), field);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses adding a retailer id already in the catalog (409), storing none of the request', async () => {
      const before = await snapshot();
      const res = await send(t.api, 'POST', path(), { products: [product('NEW-1'), product('SKU-1')] });
      expect(res.status).toBe(409);
      expect(res.body.error_code).toBe('products_already_exist');
      expect(res.body.message).toContain('SKU-1');
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['products empty', { products: [] }, 'products'],
      ['retailer_id missing', { products: [{ price: 10 }] }, 'products.0.retailer_id'],
      ['nothing to change', { products: [{ retailer_id: 'SKU-1' }] }, 'products.0'],
      ['a negative price', { products: [{ retailer_id: 'SKU-1', price: -1 }] }, 'products.0.price'],
      [
        'an unknown availability',
        { products: [{ retailer_id: 'SKU-1', availability: 'gone' }] },
        'products.0.availability',
      ],
      ['an unknown condition', { products: [{ retailer_id: 'SKU-1', condition: 'old' }] }, 'products.0.condition'],
      ['a lowercase currency', { products: [{ retailer_id: 'SKU-1', currency: 'usd' }] }, 'products.0.currency'],
      ['a blank brand', { products: [{ retailer_id: 'SKU-1', brand: '' }] }, 'products.0.brand'],
      [
        'a retailer id twice',
        {
          products: [
            { retailer_id: 'SKU-1', price: 1 },
            { retailer_id: 'SKU-1', price: 2 },
          ],
        },
        'products.1.retailer_id',
      ],
    ])('refuses updating with %s, changing nothing', async (_name, body, field) => {
      const before = await snapshot();
      expect400(await send(t.api, 'PUT', path(), body), field);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses updating a retailer id not in the catalog (404), changing none of the request', async () => {
      const before = await snapshot();
      const res = await send(t.api, 'PUT', path(), {
        products: [
          { retailer_id: 'SKU-1', price: 1 },
          { retailer_id: 'NOPE', price: 2 },
        ],
      });
      expect(res.status).toBe(404);
      expect(res.body.error_code).toBe('products_not_found');
      expect(res.body.message).toContain('NOPE');
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['retailer_ids missing', {}],
      ['retailer_ids empty', { retailer_ids: [] }],
      ['retailer_ids not a list', { retailer_ids: 'SKU-1' }],
      ['a malformed retailer id', { retailer_ids: ['SKU-1', 'bad id'] }],
      ['a retailer id not text', { retailer_ids: [7] }],
    ])('refuses marking for deletion with %s, marking nothing', async (_name, body) => {
      const before = await snapshot();
      expect400(await send(t.api, 'PATCH', `${path()}/mark-for-deletion`, body), 'retailer_ids');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses marking a retailer id not in the catalog (404), marking none', async () => {
      const before = await snapshot();
      const res = await send(t.api, 'PATCH', `${path()}/mark-for-deletion`, { retailer_ids: ['SKU-1', 'NOPE'] });
      expect(res.status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['availability', 'availability=sold'],
      ['condition', 'condition=broken'],
      ['min_price', 'min_price=abc'],
      ['min_price', 'min_price=-1'],
      ['max_price', 'min_price=10&max_price=5'],
      ['retailer_ids', 'retailer_ids=bad%20id'],
      ['retailer_ids', `retailer_ids=${Array.from({ length: 101 }, (_, i) => `R${i}`).join(',')}`],
      ['sync_statuses', 'sync_statuses=SYNCED,DONE'],
      ['page_size', 'page_size=0'],
      ['page_size', 'page_size=101'],
      ['page_size', 'page_size=abc'],
      ['search', `search=${'s'.repeat(101)}`],
      ['brand', `brand=${'b'.repeat(101)}`],
      ['start_key', 'start_key=not-a-key'],
    ])('refuses listing with a bad %s (case %#)', async (field, query) => {
      expect400(await send(t.api, 'GET', `${path()}?${query}`), field);
    });
  });
});
