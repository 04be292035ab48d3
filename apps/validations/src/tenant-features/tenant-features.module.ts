import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { TenantFeaturesController } from './tenant-features.controller';
import { TenantFeaturesEntity } from './tenant-features.entity';
import { TenantFeaturesService } from './tenant-features.service';

@Module({
  imports: [TypeOrmModule.forFeature([TenantFeaturesEntity])],
  controllers: [TenantFeaturesController],
  providers: [TenantFeaturesService],
  exports: [TenantFeaturesService],
})
export class TenantFeaturesModule {}
