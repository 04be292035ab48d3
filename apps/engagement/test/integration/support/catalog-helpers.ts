import { ApiClient, ApiResponse } from '@kyc/testing';

/** A JSON request (the catalogs API takes JSON bodies). */
export const send = (api: ApiClient, method: string, path: string, body?: unknown): Promise<ApiResponse<any>> =>
  api.request<any>(method, path, body, body === undefined ? {} : { 'content-type': 'application/json' });

export const CATALOGS = '/v1/engagement/catalogs';

export const newCatalog = (overrides: Record<string, unknown> = {}) => ({
  catalog_name: 'Tienda Bogotá',
  provider_type: 'WHATSAPP',
  vertical: 'commerce',
  ...overrides,
});

export const product = (retailerId: string, overrides: Record<string, unknown> = {}) => ({
  retailer_id: retailerId,
  name: `Producto ${retailerId}`,
  price: 59900.5,
  currency: 'COP',
  availability: 'in stock',
  brand: 'Acme',
  condition: 'new',
  ...overrides,
});

/** Creates a catalog and answers its id. */
export async function createCatalog(api: ApiClient, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await send(api, 'POST', CATALOGS, newCatalog(overrides));
  if (res.status !== 201) throw new Error(`catalog: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.catalog_id;
}
