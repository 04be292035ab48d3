import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { CheckEntity } from '../checks/check.entity';
import { CollectorsModule } from '../collectors/collectors.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { CheckDatabaseEntity } from './check-database.entity';
import { CheckEngineService } from './check-engine.service';
import { CollectDatabase } from './use-cases/collect-database.use-case';
import { RunCheckTimer } from './use-cases/run-check-timer.use-case';
import { SettleCheck } from './use-cases/settle-check.use-case';
import { StartCheck } from './use-cases/start-check.use-case';

@Module({
  imports: [TypeOrmModule.forFeature([CheckEntity, CheckDatabaseEntity]), CollectorsModule, CredentialsModule],
  providers: [CheckEngineService, SettleCheck, StartCheck, CollectDatabase, RunCheckTimer],
  exports: [CheckEngineService],
})
export class EngineModule {}
