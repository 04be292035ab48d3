import { Caller, Clock } from '@kyc/platform';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';

import { CredentialsService, viaProvider } from '../credentials/credentials.service';
import { CatalogProvider, PROVIDER_BATCH_SIZE, ProviderProductItem } from '../provider/catalog-provider';
import { ProviderCredentials } from '../provider/messaging-provider';
import { CatalogEntity } from './catalog.entity';
import { CatalogProductEntity } from './catalog-product.entity';
import { CatalogErrorCode, CatalogException } from './catalogs.exception';
import { CatalogsService } from './catalogs.service';

export interface PublishResult {
  catalog: CatalogEntity;
  created: number;
  updated: number;
  deleted: number;
  failed: number;
}

const formatPrice = (p: CatalogProductEntity) => `${(p.priceMinor / 100).toFixed(2)} ${p.currency}`;

/**
 * Publishes a catalog to the provider through the adapter: creates the provider's catalog under the
 * business that owns the WABA (once; its id is kept), connects it to the WABA, then sends every
 * PENDING or FAILED product (CREATE when never synced, else UPDATE) and every product MARKED_FOR_DELETION
 * (DELETE; removed here once the provider took it) in batches. One publish of a catalog at a time
 * (its row is locked); what the provider accepted is kept even when a later batch fails.
 */
@Injectable()
export class CatalogPublisher {
  private readonly logger = new Logger('catalogs');

  constructor(
    private readonly catalogs: CatalogsService,
    private readonly credentials: CredentialsService,
    private readonly provider: CatalogProvider,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async publish(caller: Caller, catalogId: string, wabaId: string): Promise<PublishResult> {
    await this.catalogs.get(caller, catalogId);
    const creds = await this.credentials.open(caller.tenantId);
    let failure: Error | undefined;
    const result = await this.dataSource.transaction(async (m) => {
      const catalog = await m.findOneOrFail(CatalogEntity, {
        where: { id: catalogId, tenantId: caller.tenantId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!catalog.wabaId)
        throw new CatalogException(CatalogErrorCode.NotLinked, 'link a business account first (link-waba)');
      if (catalog.wabaId !== wabaId)
        throw new CatalogException(CatalogErrorCode.WabaMismatch, `the catalog is linked to ${catalog.wabaId}`, [
          { field: 'waba_id', message: 'must be the business account linked to the catalog' },
        ]);
      const counts = { created: 0, updated: 0, deleted: 0, failed: 0 };
      try {
        if (!catalog.providerCatalogId) {
          const business = await viaProvider(() => this.provider.ownerBusiness(creds, wabaId));
          catalog.providerCatalogId = await viaProvider(() =>
            this.provider.createCatalog(creds, business, catalog.name, catalog.vertical),
          );
        }
        if (catalog.publishedWabaId !== wabaId) {
          await viaProvider(() => this.provider.connect(creds, wabaId, catalog.providerCatalogId!));
          catalog.publishedWabaId = wabaId;
        }
        await this.syncProducts(m, creds, catalog, counts);
        catalog.publishedAt = this.clock.now();
      } catch (err) {
        // Kept: the provider's catalog id and every batch it accepted; the error is answered after the commit.
        failure = err instanceof Error ? err : new Error(String(err));
      }
      catalog.updatedAt = this.clock.now();
      await m.save(catalog);
      return { catalog, ...counts };
    });
    if (failure) throw failure;
    this.logger.log({ msg: 'catalog published', catalog_id: catalogId, ...result, catalog: undefined });
    return result;
  }

  private async syncProducts(
    m: EntityManager,
    creds: ProviderCredentials,
    catalog: CatalogEntity,
    counts: Omit<PublishResult, 'catalog'>,
  ): Promise<void> {
    const products = await m.find(CatalogProductEntity, {
      where: { catalogId: catalog.id, syncStatus: In(['PENDING', 'FAILED', 'MARKED_FOR_DELETION']) },
      order: { createdAt: 'ASC', id: 'ASC' },
      // A product changed during the publish waits for it, so SYNCED never marks a version the provider lacks.
      lock: { mode: 'pessimistic_write' },
    });
    // Never-published products marked for deletion have nothing to remove at the provider.
    const local = products.filter((p) => p.syncStatus === 'MARKED_FOR_DELETION' && !p.syncedAt);
    if (local.length) await m.delete(CatalogProductEntity, { id: In(local.map((p) => p.id)) });
    counts.deleted += local.length;
    const send = products.filter((p) => !local.includes(p));
    for (let i = 0; i < send.length; i += PROVIDER_BATCH_SIZE) {
      const batch = send.slice(i, i + PROVIDER_BATCH_SIZE);
      const results = await viaProvider(() =>
        this.provider.itemsBatch(creds, catalog.providerCatalogId!, batch.map(toItem)),
      );
      const now = this.clock.now();
      for (const [index, p] of batch.entries()) {
        const errors = results[index].errors;
        if (errors.length) {
          counts.failed++;
          await m.update(CatalogProductEntity, { id: p.id }, { syncStatus: 'FAILED', syncError: errors.join('; ') });
        } else if (p.syncStatus === 'MARKED_FOR_DELETION') {
          counts.deleted++;
          await m.delete(CatalogProductEntity, { id: p.id });
        } else {
          if (p.syncedAt) counts.updated++;
          else counts.created++;
          await m.update(CatalogProductEntity, { id: p.id }, { syncStatus: 'SYNCED', syncError: null, syncedAt: now });
        }
      }
    }
  }
}

function toItem(p: CatalogProductEntity): ProviderProductItem {
  if (p.syncStatus === 'MARKED_FOR_DELETION') return { method: 'DELETE', retailerId: p.retailerId };
  return {
    method: p.syncedAt ? 'UPDATE' : 'CREATE',
    retailerId: p.retailerId,
    data: {
      title: p.name,
      ...(p.description ? { description: p.description } : {}),
      price: formatPrice(p),
      availability: p.availability,
      condition: p.condition,
      ...(p.brand ? { brand: p.brand } : {}),
      ...(p.imageUrl ? { image_link: p.imageUrl } : {}),
      ...(p.url ? { link: p.url } : {}),
    },
  };
}
