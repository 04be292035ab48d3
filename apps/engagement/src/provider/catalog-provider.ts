import { Injectable } from '@nestjs/common';

import { GraphBody, MessagingProvider, ProviderCredentials, ProviderError } from './messaging-provider';

/** One product as the provider's catalog batch API takes it (`items_batch`, item type PRODUCT_ITEM). */
export interface ProviderProductItem {
  method: 'CREATE' | 'UPDATE' | 'DELETE';
  retailerId: string;
  data?: {
    title: string;
    description?: string;
    /** `"<amount with 2 decimals> <ISO 4217>"`, e.g. `59900.50 COP`. */
    price: string;
    availability: string;
    condition: string;
    brand?: string;
    image_link?: string;
    link?: string;
  };
}

/** The provider's verdict on one item of a batch: no errors means it was applied. */
export interface ProviderItemResult {
  retailerId: string;
  errors: string[];
}

interface CatalogGraphBody extends GraphBody {
  owner_business_info?: { id?: string };
  handles?: string[];
  validation_status?: { retailer_id?: string; errors?: { message?: string }[] }[];
}

/** Items per batch call (the Graph API takes up to 5,000). */
export const PROVIDER_BATCH_SIZE = 1_000;

/**
 * Commerce catalogs through the WhatsApp Business Platform (Meta Graph API): the business that owns
 * the WABA owns the catalog (`GET /{waba-id}?fields=owner_business_info`, `POST
 * /{business-id}/owned_product_catalogs`), the catalog is connected to the WABA (`POST|DELETE
 * /{waba-id}/product_catalogs`), products go in batches (`POST /{catalog-id}/items_batch`) and the
 * catalog is removed with `DELETE /{catalog-id}`. The sandbox provider speaks the same subset.
 */
@Injectable()
export class CatalogProvider {
  constructor(private readonly graph: MessagingProvider) {}

  async ownerBusiness(c: ProviderCredentials, wabaId: string): Promise<string> {
    const body: CatalogGraphBody = await this.graph.call(c, 'GET', `${wabaId}?fields=owner_business_info`);
    const id = body.owner_business_info?.id;
    if (!id) throw new ProviderError('the provider did not name the business that owns the WABA', 502);
    return String(id);
  }

  async createCatalog(c: ProviderCredentials, businessId: string, name: string, vertical: string): Promise<string> {
    const body = await this.graph.call(c, 'POST', `${businessId}/owned_product_catalogs`, { name, vertical });
    return String(body.id);
  }

  async connect(c: ProviderCredentials, wabaId: string, catalogId: string): Promise<void> {
    await this.graph.call(c, 'POST', `${wabaId}/product_catalogs`, { catalog_id: catalogId });
  }

  async disconnect(c: ProviderCredentials, wabaId: string, catalogId: string): Promise<void> {
    await this.graph.call(c, 'DELETE', `${wabaId}/product_catalogs?catalog_id=${encodeURIComponent(catalogId)}`);
  }

  async deleteCatalog(c: ProviderCredentials, catalogId: string): Promise<void> {
    try {
      await this.graph.call(c, 'DELETE', encodeURIComponent(catalogId));
    } catch (err) {
      // Already gone at the provider: the deletion holds.
      if (!(err instanceof ProviderError && err.status === 404)) throw err;
    }
  }

  /** Sends one batch (at most PROVIDER_BATCH_SIZE items); answers each item's result. */
  async itemsBatch(
    c: ProviderCredentials,
    catalogId: string,
    items: ProviderProductItem[],
  ): Promise<ProviderItemResult[]> {
    const body: CatalogGraphBody = await this.graph.call(c, 'POST', `${encodeURIComponent(catalogId)}/items_batch`, {
      item_type: 'PRODUCT_ITEM',
      requests: items.map((i) => ({
        method: i.method,
        data: { id: i.retailerId, ...(i.data ?? {}) },
      })),
    });
    const errors = new Map<string, string[]>();
    for (const v of body.validation_status ?? [])
      if (v.retailer_id)
        errors.set(
          String(v.retailer_id),
          (v.errors ?? []).map((e) => String(e.message ?? 'refused')),
        );
    return items.map((i) => ({ retailerId: i.retailerId, errors: errors.get(i.retailerId) ?? [] }));
  }
}
