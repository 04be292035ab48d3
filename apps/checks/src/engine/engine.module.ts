import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { CheckEntity } from '../checks/check.entity';
import { CollectorsModule } from '../collectors/collectors.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { CheckDatabaseEntity } from './check-database.entity';
import { CheckEngineService } from './check-engine.service';

@Module({
  imports: [TypeOrmModule.forFeature([CheckEntity, CheckDatabaseEntity]), CollectorsModule, CredentialsModule],
  providers: [CheckEngineService],
  exports: [CheckEngineService],
})
export class EngineModule {}
