import { randomUUID } from 'node:crypto';

import { Caller, Clock, Page, paginate } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, QueryFailedError, Repository } from 'typeorm';

import { toMinor } from './catalog.presenter';
import { CatalogProductEntity, SyncStatus } from './catalog-product.entity';
import { CatalogErrorCode, CatalogException } from './catalogs.exception';
import { CatalogsService } from './catalogs.service';
import { ListProductsQuery } from './dto/list-products.query';
import { NewProductDto, ProductChangeDto } from './dto/product.dto';

const DEFAULT_PAGE_SIZE = 20;
const CHANGEABLE = [
  'name',
  'description',
  'price',
  'currency',
  'availability',
  'brand',
  'condition',
  'image_url',
  'url',
];
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Products of a catalog, by retailer id: add, update, list with filters, mark for deletion. */
@Injectable()
export class ProductsService {
  constructor(
    @InjectRepository(CatalogProductEntity) private readonly products: Repository<CatalogProductEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly catalogs: CatalogsService,
    private readonly clock: Clock,
  ) {}

  /** Adds new products (PENDING until published); 409 when a retailer id is already in the catalog. */
  async add(caller: Caller, catalogId: string, items: NewProductDto[]): Promise<CatalogProductEntity[]> {
    const catalog = await this.catalogs.get(caller, catalogId);
    assertUnique(items.map((p) => p.retailer_id));
    const now = this.clock.now();
    const rows = items.map((p) =>
      this.products.create({
        id: randomUUID(),
        tenantId: caller.tenantId,
        catalogId: catalog.id,
        retailerId: p.retailer_id,
        name: p.name,
        description: p.description ?? null,
        priceMinor: toMinor(p.price),
        currency: p.currency,
        availability: p.availability as CatalogProductEntity['availability'],
        brand: p.brand ?? null,
        condition: p.condition as CatalogProductEntity['condition'],
        imageUrl: p.image_url ?? null,
        url: p.url ?? null,
        syncStatus: 'PENDING',
        syncError: null,
        syncedAt: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
    const existing = await this.products.find({
      select: { retailerId: true },
      where: { catalogId: catalog.id, retailerId: In(rows.map((r) => r.retailerId)) },
    });
    if (existing.length) throw exists(existing.map((e) => e.retailerId));
    try {
      await this.dataSource.transaction((m) => m.insert(CatalogProductEntity, rows));
    } catch (err) {
      // A concurrent add of the same retailer id (the catalog's unique key).
      if (err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '23505')
        throw exists(rows.map((r) => r.retailerId));
      throw err;
    }
    return rows;
  }

  /** Changes existing products (each back to PENDING); 404 naming every unknown retailer id. */
  async update(caller: Caller, catalogId: string, items: ProductChangeDto[]): Promise<CatalogProductEntity[]> {
    const catalog = await this.catalogs.get(caller, catalogId);
    assertUnique(items.map((p) => p.retailer_id));
    const empty = items.findIndex(
      (p) => !CHANGEABLE.some((k) => (p as unknown as Record<string, unknown>)[k] !== undefined),
    );
    if (empty >= 0)
      throw new CatalogException(CatalogErrorCode.NoChanges, 'every product needs a field to change', [
        { field: `products.${empty}`, message: `give at least one of ${CHANGEABLE.join(', ')}` },
      ]);
    return this.dataSource.transaction(async (m) => {
      const found = await m.find(CatalogProductEntity, {
        where: { catalogId: catalog.id, retailerId: In(items.map((p) => p.retailer_id)) },
        lock: { mode: 'pessimistic_write' },
      });
      const byId = new Map(found.map((p) => [p.retailerId, p]));
      const missing = items.map((p) => p.retailer_id).filter((id) => !byId.has(id));
      if (missing.length) throw notFound(missing);
      const now = this.clock.now();
      const changed = items.map((c) => {
        const p = byId.get(c.retailer_id)!;
        if (c.name !== undefined) p.name = c.name;
        if (c.description !== undefined) p.description = c.description;
        if (c.price !== undefined) p.priceMinor = toMinor(c.price);
        if (c.currency !== undefined) p.currency = c.currency;
        if (c.availability !== undefined) p.availability = c.availability as CatalogProductEntity['availability'];
        if (c.brand !== undefined) p.brand = c.brand;
        if (c.condition !== undefined) p.condition = c.condition as CatalogProductEntity['condition'];
        if (c.image_url !== undefined) p.imageUrl = c.image_url;
        if (c.url !== undefined) p.url = c.url;
        p.syncStatus = 'PENDING';
        p.syncError = null;
        p.updatedAt = now;
        return p;
      });
      return m.save(changed);
    });
  }

  async list(caller: Caller, catalogId: string, q: ListProductsQuery): Promise<Page<CatalogProductEntity>> {
    const catalog = await this.catalogs.get(caller, catalogId);
    const qb = this.products
      .createQueryBuilder('p')
      .where('p.tenantId = :tenant AND p.catalogId = :catalog', { tenant: caller.tenantId, catalog: catalog.id });
    if (q.availability) qb.andWhere('p.availability = :availability', { availability: q.availability });
    if (q.brand) qb.andWhere('lower(p.brand) = lower(:brand)', { brand: q.brand });
    if (q.condition) qb.andWhere('p.condition = :condition', { condition: q.condition });
    if (q.min_price !== undefined) qb.andWhere('p.priceMinor >= :min', { min: Math.ceil(q.min_price * 100) });
    if (q.max_price !== undefined) qb.andWhere('p.priceMinor <= :max', { max: Math.floor(q.max_price * 100) });
    if (q.retailer_ids) qb.andWhere('p.retailerId IN (:...ids)', { ids: q.retailer_ids });
    if (q.search)
      qb.andWhere(`(p.name ILIKE :like ESCAPE '\\' OR p.retailerId ILIKE :like ESCAPE '\\')`, {
        like: `%${escapeLike(q.search)}%`,
      });
    if (q.sync_statuses) qb.andWhere('p.syncStatus IN (:...statuses)', { statuses: q.sync_statuses });
    return paginate(qb, { startKey: q.start_key, limit: q.page_size ?? DEFAULT_PAGE_SIZE });
  }

  /** Marks products for deletion: they leave the provider's catalog at the next publish. */
  async markForDeletion(caller: Caller, catalogId: string, retailerIds: string[]): Promise<CatalogProductEntity[]> {
    const catalog = await this.catalogs.get(caller, catalogId);
    const ids = [...new Set(retailerIds)];
    return this.dataSource.transaction(async (m) => {
      const found = await m.find(CatalogProductEntity, {
        where: { catalogId: catalog.id, retailerId: In(ids) },
        lock: { mode: 'pessimistic_write' },
      });
      const missing = ids.filter((id) => !found.some((p) => p.retailerId === id));
      if (missing.length) throw notFound(missing);
      const now = this.clock.now();
      for (const p of found) {
        p.syncStatus = 'MARKED_FOR_DELETION' satisfies SyncStatus;
        p.updatedAt = now;
      }
      return m.save(found);
    });
  }
}

function assertUnique(retailerIds: string[]) {
  const seen = new Set<string>();
  const fields = retailerIds.flatMap((id, i) => {
    if (!seen.has(id)) return (seen.add(id), []);
    return [{ field: `products.${i}.retailer_id`, message: `retailer_id ${id} appears more than once` }];
  });
  if (fields.length)
    throw new CatalogException(CatalogErrorCode.DuplicateRetailerIds, 'a retailer id appears more than once', fields);
}

const exists = (ids: string[]) =>
  new CatalogException(
    CatalogErrorCode.ProductsExist,
    `products already in the catalog: ${someOf(ids)} (update them with PUT)`,
  );

const notFound = (ids: string[]) =>
  new CatalogException(CatalogErrorCode.ProductsNotFound, `products not in the catalog: ${someOf(ids)}`);

/** The first ids of a list, for a message of bounded length. */
const someOf = (ids: string[]) =>
  ids.length > 20 ? `${ids.slice(0, 20).join(', ')} and ${ids.length - 20} more` : ids.join(', ');
