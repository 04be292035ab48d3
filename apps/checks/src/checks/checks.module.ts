import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { CollectorsModule } from '../collectors/collectors.module';
import { CheckEntity } from '../engine/check.entity';
import { CheckDatabaseEntity } from '../engine/check-database.entity';
import { EngineModule } from '../engine/engine.module';
import { ChecksController } from './checks.controller';
import { ChecksService } from './checks.service';
import { ChecksRuleCheckCreator } from './checks-rule-check-creator';

@Module({
  imports: [TypeOrmModule.forFeature([CheckEntity, CheckDatabaseEntity]), EngineModule, CollectorsModule],
  controllers: [ChecksController],
  providers: [ChecksService, ChecksRuleCheckCreator],
  exports: [ChecksService, ChecksRuleCheckCreator],
})
export class ChecksModule {}
