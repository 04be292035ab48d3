import { CatalogEntity } from './catalog.entity';
import { CatalogProductEntity } from './catalog-product.entity';
import { CatalogResponse, ProductResponse } from './dto/catalog.response';

export function presentCatalog(c: CatalogEntity): CatalogResponse {
  return {
    catalog_id: c.id,
    catalog_name: c.name,
    provider_type: c.providerType,
    vertical: c.vertical,
    waba_id: c.wabaId,
    provider_catalog_id: c.providerCatalogId,
    published_at: c.publishedAt?.toISOString() ?? null,
    creation_date: c.createdAt.toISOString(),
    update_date: c.updatedAt.toISOString(),
  };
}

/** Minor units back to the currency's units (2 decimals). */
export const fromMinor = (minor: number): number => minor / 100;
export const toMinor = (price: number): number => Math.round(price * 100);

export function presentProduct(p: CatalogProductEntity): ProductResponse {
  return {
    retailer_id: p.retailerId,
    name: p.name,
    description: p.description,
    price: fromMinor(p.priceMinor),
    currency: p.currency,
    availability: p.availability,
    brand: p.brand,
    condition: p.condition,
    image_url: p.imageUrl,
    url: p.url,
    sync_status: p.syncStatus,
    sync_error: p.syncError,
    synced_at: p.syncedAt?.toISOString() ?? null,
    creation_date: p.createdAt.toISOString(),
    update_date: p.updatedAt.toISOString(),
  };
}
