import { GraphAnswer, graphError } from './sandbox-types';

/**
 * SANDBOX commerce catalogs of the sandbox messaging provider (sandbox-messaging.server.ts): the
 * Graph API catalog subset the engagement service's adapter calls, kept in memory.
 *
 *   GET    /{waba-id}?fields=owner_business_info   the business that owns the WABA (`biz<waba-id>`)
 *   POST   /{business-id}/owned_product_catalogs   {name, vertical commerce} → {id}
 *   GET    /{waba-id}/product_catalogs             catalogs connected to the WABA
 *   POST   /{waba-id}/product_catalogs             {catalog_id}: connect (same business only)
 *   DELETE /{waba-id}/product_catalogs?catalog_id= disconnect
 *   POST   /{catalog-id}/items_batch               {item_type PRODUCT_ITEM, requests [{method, data}]}, ≤ 5,000
 *   GET    /{catalog-id}/products                  the catalog's items
 *   DELETE /{catalog-id}                           delete the catalog
 *
 * Batch rules (each refused item is named in `validation_status`, the others are applied): CREATE of
 * an existing id, UPDATE or DELETE of an unknown one; CREATE needs title, price (`"<amount with 2
 * decimals> <ISO 4217>"`), availability and condition of the provider's values; a title containing
 * "sandbox-reject" is refused as a policy violation (to test refusals).
 */
export interface SandboxCatalog {
  id: string;
  business_id: string;
  name: string;
  vertical: string;
  waba_ids: string[];
  products: Record<string, unknown>[];
  batches: number;
}

interface BatchRequest {
  method?: unknown;
  data?: Record<string, unknown>;
}

const AVAILABILITY = ['in stock', 'out of stock', 'preorder', 'available for order', 'discontinued'];
const CONDITION = ['new', 'refurbished', 'used'];
const PRICE = /^\d+\.\d{2} [A-Z]{3}$/;
const MAX_BATCH = 5_000;

export function sandboxCatalogs(deps: { wabaExists: (id: string) => boolean; nextId: () => string }) {
  const catalogs = new Map<
    string,
    { meta: Omit<SandboxCatalog, 'products'>; products: Map<string, Record<string, unknown>> }
  >();
  const businessOf = (wabaId: string) => `biz${wabaId}`;
  const error = (status: number, code: number, message: string) => graphError(deps.nextId, status, code, message);
  const ok = (body: unknown): GraphAnswer => ({ status: 200, body });

  const itemErrors = (method: string, data: Record<string, unknown>, exists: boolean): string[] => {
    const errors: string[] = [];
    if (method === 'CREATE' && exists) errors.push('An item with this retailer id already exists');
    if ((method === 'UPDATE' || method === 'DELETE') && !exists) errors.push('No item with this retailer id');
    if (method === 'DELETE') return errors;
    const needs = (field: string) => method === 'CREATE' || data[field] !== undefined;
    if (needs('title') && (typeof data.title !== 'string' || !data.title.trim())) errors.push('title is required');
    if (needs('price') && !PRICE.test(String(data.price))) errors.push('price must be "<amount> <currency>"');
    if (needs('availability') && !AVAILABILITY.includes(String(data.availability)))
      errors.push('availability is not valid');
    if (needs('condition') && !CONDITION.includes(String(data.condition))) errors.push('condition is not valid');
    if (typeof data.title === 'string' && /sandbox-reject/i.test(data.title))
      errors.push('Item rejected: policy violation (sandbox rule)');
    return errors;
  };

  const batch = (id: string, body: { item_type?: unknown; requests?: unknown }): GraphAnswer => {
    const catalog = catalogs.get(id)!;
    if (body.item_type !== 'PRODUCT_ITEM') return error(400, 100, 'Invalid parameter: item_type');
    if (!Array.isArray(body.requests) || !body.requests.length || body.requests.length > MAX_BATCH)
      return error(400, 100, `Invalid parameter: requests (1 to ${MAX_BATCH})`);
    const validation: { retailer_id: string; errors: { message: string }[] }[] = [];
    for (const r of body.requests as BatchRequest[]) {
      const method = typeof r?.method === 'string' ? r.method : '';
      const data = r?.data ?? {};
      const retailerId = typeof data.id === 'string' ? data.id : '';
      if (!['CREATE', 'UPDATE', 'DELETE'].includes(method) || !retailerId) {
        validation.push({ retailer_id: retailerId, errors: [{ message: 'method and data.id are required' }] });
        continue;
      }
      const errors = itemErrors(method, data, catalog.products.has(retailerId));
      if (errors.length) {
        validation.push({ retailer_id: retailerId, errors: errors.map((message) => ({ message })) });
        continue;
      }
      if (method === 'DELETE') catalog.products.delete(retailerId);
      else
        catalog.products.set(retailerId, {
          ...(catalog.products.get(retailerId) ?? {}),
          ...data,
          retailer_id: retailerId,
        });
    }
    catalog.meta.batches++;
    return ok({ handles: [`handle${deps.nextId()}`], validation_status: validation });
  };

  /** Answers a Graph call when it is a catalog call, else undefined. */
  const handle = (
    method: string,
    parts: string[],
    url: URL,
    body: Record<string, unknown> | undefined,
  ): GraphAnswer | undefined => {
    const [node, edge] = parts;
    if (!edge && method === 'GET' && deps.wabaExists(node) && url.searchParams.get('fields') === 'owner_business_info')
      return ok({ id: node, owner_business_info: { id: businessOf(node), name: 'Sandbox business' } });
    if (edge === 'owned_product_catalogs' && method === 'POST') {
      const wabaId = node.startsWith('biz') ? node.slice(3) : '';
      if (!deps.wabaExists(wabaId)) return error(400, 100, `Object with ID '${node}' does not exist`);
      if (typeof body?.name !== 'string' || !body.name.trim()) return error(400, 100, 'Invalid parameter: name');
      if (body.vertical !== undefined && body.vertical !== 'commerce')
        return error(400, 100, 'Invalid parameter: vertical');
      const id = deps.nextId();
      catalogs.set(id, {
        meta: { id, business_id: node, name: body.name, vertical: 'commerce', waba_ids: [], batches: 0 },
        products: new Map(),
      });
      return ok({ id });
    }
    if (edge === 'product_catalogs' && deps.wabaExists(node)) {
      if (method === 'GET')
        return ok({
          data: [...catalogs.values()]
            .filter((c) => c.meta.waba_ids.includes(node))
            .map((c) => ({ id: c.meta.id, name: c.meta.name })),
        });
      const catalogId =
        typeof body?.catalog_id === 'string' ? body.catalog_id : (url.searchParams.get('catalog_id') ?? '');
      const catalog = catalogs.get(catalogId);
      if (!catalog) return error(400, 100, `Catalog '${catalogId}' does not exist`);
      if (method === 'POST') {
        if (catalog.meta.business_id !== businessOf(node))
          return error(400, 200, 'The catalog and the WhatsApp Business Account belong to different businesses');
        if (!catalog.meta.waba_ids.includes(node)) catalog.meta.waba_ids.push(node);
        return ok({ success: true });
      }
      if (method === 'DELETE') {
        catalog.meta.waba_ids = catalog.meta.waba_ids.filter((w) => w !== node);
        return ok({ success: true });
      }
    }
    const catalog = catalogs.get(node);
    if (!catalog) return undefined;
    if (edge === 'items_batch' && method === 'POST') return batch(node, body ?? {});
    if (edge === 'products' && method === 'GET') return ok({ data: [...catalog.products.values()] });
    if (!edge && method === 'DELETE') {
      catalogs.delete(node);
      return ok({ success: true });
    }
    return undefined;
  };

  const list = (): SandboxCatalog[] =>
    [...catalogs.values()].map((c) => ({
      ...c.meta,
      waba_ids: [...c.meta.waba_ids],
      products: [...c.products.values()],
    }));

  return { handle, list };
}
