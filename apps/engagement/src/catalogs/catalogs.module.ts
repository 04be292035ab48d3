import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { CredentialsModule } from '../credentials/credentials.module';
import { CatalogProvider } from '../provider/catalog-provider';
import { ProviderModule } from '../provider/provider.module';
import { CatalogEntity } from './catalog.entity';
import { CatalogProductEntity } from './catalog-product.entity';
import { CatalogPublisher } from './catalog-publisher.service';
import { CatalogsController } from './catalogs.controller';
import { CatalogsService } from './catalogs.service';
import { ProductsController } from './products.controller';
import { ProductsService } from './products.service';

/** Product catalogs and their products, published to the messaging provider's commerce catalogs. */
@Module({
  imports: [TypeOrmModule.forFeature([CatalogEntity, CatalogProductEntity]), ProviderModule, CredentialsModule],
  controllers: [CatalogsController, ProductsController],
  providers: [CatalogsService, ProductsService, CatalogPublisher, CatalogProvider],
})
export class CatalogsModule {}
