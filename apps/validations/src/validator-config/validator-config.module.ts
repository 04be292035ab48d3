import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { TenantFeaturesModule } from '../tenant-features/tenant-features.module';
import { DocumentCatalogController } from './document-catalog.controller';
import { ValidatorConfigController } from './validator-config.controller';
import { ValidatorConfigEntity } from './validator-config.entity';
import { ValidatorConfigService } from './validator-config.service';

@Module({
  imports: [TypeOrmModule.forFeature([ValidatorConfigEntity]), TenantFeaturesModule],
  controllers: [ValidatorConfigController, DocumentCatalogController],
  providers: [ValidatorConfigService],
  exports: [ValidatorConfigService],
})
export class ValidatorConfigModule {}
