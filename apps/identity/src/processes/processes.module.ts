import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ApiKeysModule } from '../api-keys/api-keys.module';
import { FlowsModule } from '../flows/flows.module';
import { ProcessLogEntity } from '../process-logs/process-log.entity';
import { ProcessLogsController } from '../process-logs/process-logs.controller';
import { ProcessEntity } from './process.entity';
import { ProcessesController } from './processes.controller';
import { ProcessesService } from './processes.service';
import { ValidationFinishedConsumer } from './validation-finished.consumer';
import { ValidationsClient } from './validations.client';

@Module({
  imports: [TypeOrmModule.forFeature([ProcessEntity, ProcessLogEntity]), FlowsModule, ApiKeysModule],
  controllers: [ProcessLogsController, ProcessesController, ValidationFinishedConsumer],
  providers: [ProcessesService, ValidationsClient],
  exports: [ProcessesService],
})
export class ProcessesModule {}
