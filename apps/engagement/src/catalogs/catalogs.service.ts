import { randomUUID } from 'node:crypto';

import { Caller, Clock, Page, paginate } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { CredentialsService, viaProvider } from '../credentials/credentials.service';
import { CatalogProvider } from '../provider/catalog-provider';
import { CatalogEntity } from './catalog.entity';
import { CatalogErrorCode, CatalogException } from './catalogs.exception';
import { CreateCatalogDto } from './dto/save-catalog.dto';
import { UpdateCatalogDto } from './dto/update-catalog.dto';

const PAGE_SIZE = 50;

/** Catalogs of a tenant: create, read, update, delete, link and unlink its business account. */
@Injectable()
export class CatalogsService {
  constructor(
    @InjectRepository(CatalogEntity) private readonly catalogs: Repository<CatalogEntity>,
    private readonly credentials: CredentialsService,
    private readonly provider: CatalogProvider,
    private readonly clock: Clock,
  ) {}

  async create(caller: Caller, dto: CreateCatalogDto): Promise<CatalogEntity> {
    const now = this.clock.now();
    return this.catalogs.save(
      this.catalogs.create({
        id: randomUUID(),
        tenantId: caller.tenantId,
        name: dto.catalog_name,
        providerType: dto.provider_type,
        vertical: dto.vertical,
        wabaId: null,
        providerCatalogId: null,
        publishedWabaId: null,
        publishedAt: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
  }

  list(caller: Caller, startKey?: string): Promise<Page<CatalogEntity>> {
    const qb = this.catalogs.createQueryBuilder('c').where('c.tenantId = :tenant', { tenant: caller.tenantId });
    return paginate(qb, { startKey, limit: PAGE_SIZE });
  }

  async get(caller: Caller, id: string): Promise<CatalogEntity> {
    const catalog = await this.catalogs.findOneBy({ id, tenantId: caller.tenantId });
    if (!catalog) throw new CatalogException(CatalogErrorCode.CatalogNotFound, `catalog ${id} not found`);
    return catalog;
  }

  async update(caller: Caller, id: string, dto: UpdateCatalogDto): Promise<CatalogEntity> {
    if (dto.catalog_name === undefined && dto.provider_type === undefined && dto.vertical === undefined)
      throw new CatalogException(
        CatalogErrorCode.NoChanges,
        'give at least one of catalog_name, provider_type, vertical',
        [{ field: 'catalog_name', message: 'at least one of catalog_name, provider_type, vertical is required' }],
      );
    const catalog = await this.get(caller, id);
    catalog.name = dto.catalog_name ?? catalog.name;
    catalog.providerType = dto.provider_type ?? catalog.providerType;
    catalog.vertical = dto.vertical ?? catalog.vertical;
    catalog.updatedAt = this.clock.now();
    return this.catalogs.save(catalog);
  }

  /** Deletes the catalog and its products, and the provider's copy when it was published. */
  async remove(caller: Caller, id: string): Promise<void> {
    const catalog = await this.get(caller, id);
    if (catalog.providerCatalogId) {
      const creds = await this.credentials.open(caller.tenantId);
      await viaProvider(() => this.provider.deleteCatalog(creds, catalog.providerCatalogId!));
    }
    await this.catalogs.delete({ id: catalog.id, tenantId: caller.tenantId });
  }

  /** Links the account's business account (the WABA of its provider credentials). */
  async linkWaba(caller: Caller, id: string, wabaId: string): Promise<CatalogEntity> {
    const catalog = await this.get(caller, id);
    const own = await this.credentials.find(caller.tenantId);
    if (!own || own.wabaId !== wabaId)
      throw new CatalogException(CatalogErrorCode.UnknownWaba, `business account ${wabaId} is not this account's`, [
        { field: 'waba_id', message: "not a business account of this account's provider credentials" },
      ]);
    catalog.wabaId = wabaId;
    catalog.updatedAt = this.clock.now();
    return this.catalogs.save(catalog);
  }

  /** Unlinks the business account; a catalog published to it is disconnected at the provider too. */
  async unlink(caller: Caller, id: string): Promise<CatalogEntity> {
    const catalog = await this.get(caller, id);
    if (!catalog.wabaId)
      throw new CatalogException(CatalogErrorCode.NotLinked, `catalog ${id} is not linked to a business account`);
    if (catalog.providerCatalogId && catalog.publishedWabaId) {
      const creds = await this.credentials.open(caller.tenantId);
      await viaProvider(() => this.provider.disconnect(creds, catalog.publishedWabaId!, catalog.providerCatalogId!));
    }
    catalog.wabaId = null;
    catalog.publishedWabaId = null;
    catalog.updatedAt = this.clock.now();
    return this.catalogs.save(catalog);
  }
}
