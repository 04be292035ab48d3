import { ApiClient, createTenant } from '@kyc/testing';

import { CATALOGS, createCatalog, product, send } from './support/catalog-helpers';
import { ConnectedTenant, connectTenant } from './support/engagement-helpers';
import { useEngagementStack } from './support/engagement-stack';

/**
 * Catalogs end to end through the real adapter and the sandbox provider: CRUD, link, products with
 * every list filter and paging, publish (create, update, a refused item, deletion), unlink, delete.
 */
describe('catalogs published to the sandbox provider', () => {
  let t: ConnectedTenant;
  let id: string;

  const stack = useEngagementStack({
    consumerGroup: 'account-engagement-catalog-flow-spec',
    sandbox: { reviewDelayMs: 100, statusDelayMs: 50 },
  });

  beforeAll(async () => {
    const tenant = await createTenant(stack.account.url, [stack.engagement.url]);
    t = await connectTenant(new ApiClient(stack.engagement.url, tenant.apiKey), stack.sandbox);
  });

  const products = () => `${CATALOGS}/${id}/products`;
  const list = async (query = '') => {
    const res = await send(t.api, 'GET', `${products()}${query ? `?${query}` : ''}`);
    expect(res.status).toBe(200);
    return (res.body.products as { retailer_id: string }[]).map((p) => p.retailer_id).sort();
  };
  const atProvider = () => stack.sandbox.catalogs().find((c) => c.business_id === `biz${t.wabaId}`);
  const providerItem = (retailerId: string) => atProvider()?.products.find((p) => p.retailer_id === retailerId);

  it('creates, reads, lists and renames a catalog', async () => {
    const created = await send(t.api, 'POST', CATALOGS, {
      catalog_name: 'Tienda Bogotá',
      provider_type: 'WHATSAPP',
      vertical: 'commerce',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      catalog_name: 'Tienda Bogotá',
      provider_type: 'WHATSAPP',
      vertical: 'commerce',
      waba_id: null,
      provider_catalog_id: null,
      published_at: null,
    });
    id = created.body.catalog_id;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await send(t.api, 'GET', `${CATALOGS}/${id}`)).body).toEqual(created.body);
    const listed = await send(t.api, 'GET', CATALOGS);
    expect(listed.body.catalogs.map((c: { catalog_id: string }) => c.catalog_id)).toContain(id);
    expect(listed.body.self).toContain(CATALOGS);
    const renamed = await send(t.api, 'PUT', `${CATALOGS}/${id}`, { catalog_name: 'Tienda Medellín' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ catalog_name: 'Tienda Medellín', provider_type: 'WHATSAPP' });
  });

  it('links the business account', async () => {
    const linked = await send(t.api, 'POST', `${CATALOGS}/${id}/link-waba`, { waba_id: t.wabaId });
    expect(linked.status).toBe(200);
    expect(linked.body.waba_id).toBe(t.wabaId);
  });

  it('adds products and lists them with every filter', async () => {
    const added = await send(t.api, 'POST', products(), {
      products: [
        product('SKU-1', { name: 'Camiseta azul', price: 50000, brand: 'Acme' }),
        product('SKU-2', { name: 'Camiseta roja', price: 80000.25, brand: 'acme', condition: 'used' }),
        product('SKU-3', { name: 'Pantalón', price: 120000, brand: 'Other', availability: 'out of stock' }),
        product('MUG-9', {
          name: 'Taza',
          price: 15000,
          brand: undefined,
          availability: 'preorder',
          condition: 'refurbished',
        }),
        product('SKU-5', {
          name: 'Gorra',
          price: 30000,
          brand: 'Zeta',
          description: 'Algodón',
          url: 'https://shop.example.com/p/5',
        }),
      ],
    });
    expect(added.status).toBe(201);
    expect(added.body.products).toHaveLength(5);
    expect(added.body.products[1]).toMatchObject({
      retailer_id: 'SKU-2',
      price: 80000.25,
      currency: 'COP',
      condition: 'used',
      sync_status: 'PENDING',
      synced_at: null,
    });

    expect(await list()).toEqual(['MUG-9', 'SKU-1', 'SKU-2', 'SKU-3', 'SKU-5']);
    expect(await list('availability=out%20of%20stock')).toEqual(['SKU-3']);
    expect(await list('brand=ACME')).toEqual(['SKU-1', 'SKU-2']);
    expect(await list('condition=refurbished')).toEqual(['MUG-9']);
    expect(await list('min_price=30000&max_price=80000.25')).toEqual(['SKU-1', 'SKU-2', 'SKU-5']);
    expect(await list('min_price=100000')).toEqual(['SKU-3']);
    expect(await list('max_price=15000')).toEqual(['MUG-9']);
    expect(await list('retailer_ids=SKU-1,MUG-9')).toEqual(['MUG-9', 'SKU-1']);
    expect(await list('retailer_ids=SKU-2&retailer_ids=SKU-3')).toEqual(['SKU-2', 'SKU-3']);
    expect(await list('search=camiseta')).toEqual(['SKU-1', 'SKU-2']);
    expect(await list('search=mug')).toEqual(['MUG-9']);
    expect(await list('search=%25')).toEqual([]);
    expect(await list('sync_statuses=PENDING')).toHaveLength(5);
    expect(await list('sync_statuses=SYNCED,FAILED')).toEqual([]);
    expect(await list('brand=acme&condition=new')).toEqual(['SKU-1']);
  });

  it('pages with page_size and an opaque next token: every product once', async () => {
    const seen: string[] = [];
    let url: string | undefined = `${products()}?page_size=2`;
    let pages = 0;
    while (url) {
      const res = await send(t.api, 'GET', url.replace(/^https?:\/\/[^/]+/, ''));
      expect(res.status).toBe(200);
      expect(res.body.products.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.products.map((p: { retailer_id: string }) => p.retailer_id));
      url = res.body.next;
      if (url) expect(new URL(url).searchParams.get('page_size')).toBe('2');
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual(['MUG-9', 'SKU-1', 'SKU-2', 'SKU-3', 'SKU-5']);
  });

  it('publishes through the adapter: the provider has the catalog, connected to the WABA, with every product', async () => {
    const res = await send(t.api, 'POST', `${CATALOGS}/${id}/publish`, { waba_id: t.wabaId });
    expect(res.status).toBe(200);
    expect(res.body.products).toEqual({ created: 5, updated: 0, deleted: 0, failed: 0 });
    expect(res.body.catalog.provider_catalog_id).toBeTruthy();
    expect(res.body.catalog.published_at).toBeTruthy();
    const catalog = atProvider()!;
    expect(catalog).toMatchObject({
      id: res.body.catalog.provider_catalog_id,
      name: 'Tienda Medellín',
      vertical: 'commerce',
    });
    expect(catalog.waba_ids).toEqual([t.wabaId]);
    expect(providerItem('SKU-2')).toMatchObject({
      title: 'Camiseta roja',
      price: '80000.25 COP',
      availability: 'in stock',
      condition: 'used',
      brand: 'acme',
    });
    expect(providerItem('SKU-5')).toMatchObject({ description: 'Algodón', link: 'https://shop.example.com/p/5' });
    expect(await list('sync_statuses=SYNCED')).toHaveLength(5);
  });

  it('updates by retailer id (PENDING again), and the next publish sends only the change', async () => {
    const res = await send(t.api, 'PUT', products(), {
      products: [{ retailer_id: 'SKU-1', price: 45000, availability: 'out of stock', brand: 'Acme Pro' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.products[0]).toMatchObject({
      retailer_id: 'SKU-1',
      name: 'Camiseta azul',
      price: 45000,
      availability: 'out of stock',
      brand: 'Acme Pro',
      sync_status: 'PENDING',
    });
    expect(await list('sync_statuses=PENDING')).toEqual(['SKU-1']);
    const published = await send(t.api, 'POST', `${CATALOGS}/${id}/publish`, { waba_id: t.wabaId });
    expect(published.body.products).toEqual({ created: 0, updated: 1, deleted: 0, failed: 0 });
    expect(providerItem('SKU-1')).toMatchObject({
      price: '45000.00 COP',
      availability: 'out of stock',
      brand: 'Acme Pro',
    });
    expect(stack.sandbox.catalogs()).toHaveLength(1);
  });

  it("keeps an item the provider refuses as FAILED with the provider's reason", async () => {
    await send(t.api, 'POST', products(), { products: [product('BAD-1', { name: 'sandbox-reject item' })] });
    const published = await send(t.api, 'POST', `${CATALOGS}/${id}/publish`, { waba_id: t.wabaId });
    expect(published.body.products).toEqual({ created: 0, updated: 0, deleted: 0, failed: 1 });
    const failed = await send(t.api, 'GET', `${products()}?sync_statuses=FAILED`);
    expect(failed.body.products).toEqual([
      expect.objectContaining({
        retailer_id: 'BAD-1',
        sync_status: 'FAILED',
        sync_error: expect.stringContaining('policy'),
      }),
    ]);
    expect(providerItem('BAD-1')).toBeUndefined();
  });

  it('marks products for deletion; the next publish removes them at the provider and here', async () => {
    const marked = await send(t.api, 'PATCH', `${products()}/mark-for-deletion`, { retailer_ids: ['SKU-3', 'BAD-1'] });
    expect(marked.status).toBe(200);
    expect(marked.body.products.map((p: { sync_status: string }) => p.sync_status)).toEqual([
      'MARKED_FOR_DELETION',
      'MARKED_FOR_DELETION',
    ]);
    expect(await list('sync_statuses=MARKED_FOR_DELETION')).toEqual(['BAD-1', 'SKU-3']);
    const published = await send(t.api, 'POST', `${CATALOGS}/${id}/publish`, { waba_id: t.wabaId });
    // SKU-3 leaves the provider; BAD-1 never reached it and is removed here only.
    expect(published.body.products).toEqual({ created: 0, updated: 0, deleted: 2, failed: 0 });
    expect(providerItem('SKU-3')).toBeUndefined();
    expect(await list()).toEqual(['MUG-9', 'SKU-1', 'SKU-2', 'SKU-5']);
    expect(
      atProvider()!
        .products.map((p) => p.retailer_id)
        .sort(),
    ).toEqual(['MUG-9', 'SKU-1', 'SKU-2', 'SKU-5']);
  });

  it('unlinks the business account: disconnected at the provider', async () => {
    const res = await send(t.api, 'PATCH', `${CATALOGS}/${id}/unlink-catalog`);
    expect(res.status).toBe(200);
    expect(res.body.waba_id).toBeNull();
    expect(atProvider()!.waba_ids).toEqual([]);
  });

  it('deletes the catalog, its products and the provider copy', async () => {
    const res = await send(t.api, 'DELETE', `${CATALOGS}/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ catalog_id: id, deleted: true });
    expect((await send(t.api, 'GET', `${CATALOGS}/${id}`)).status).toBe(404);
    expect(atProvider()).toBeUndefined();
    expect(await send(t.api, 'GET', CATALOGS).then((r) => r.body.catalogs)).toEqual([]);
  });

  it('deletes a catalog never published without calling the provider', async () => {
    const other = await createCatalog(t.api);
    expect((await send(t.api, 'DELETE', `${CATALOGS}/${other}`)).status).toBe(200);
    expect((await send(t.api, 'GET', `${CATALOGS}/${other}/products`)).status).toBe(404);
  });
});
