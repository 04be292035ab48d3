import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ApiKeysModule } from '../api-keys/api-keys.module';
import { FlowsModule } from '../flows/flows.module';
import { ProcessLogEntity } from '../process-logs/process-log.entity';
import { ProcessLogsController } from '../process-logs/process-logs.controller';
import { ProcessLogsService } from '../process-logs/process-logs.service';
import { ProcessEntity } from './process.entity';
import { ProcessCodesService } from './process-codes.service';
import { ProcessCreationService } from './process-creation.service';
import { ProcessNavigationService } from './process-navigation.service';
import { ProcessOverrideService } from './process-override.service';
import { ProcessQueryService } from './process-query.service';
import { ProcessStepsService } from './process-steps.service';
import { ProcessStore } from './process-store';
import { ProcessTimeoutService } from './process-timeout.service';
import { ProcessesController } from './processes.controller';
import { StepValidations } from './step-validations';
import { ValidationFinishedConsumer } from './validation-finished.consumer';
import { ValidationsClient } from './validations.client';

@Module({
  imports: [TypeOrmModule.forFeature([ProcessEntity, ProcessLogEntity]), FlowsModule, ApiKeysModule],
  controllers: [ProcessLogsController, ProcessesController, ValidationFinishedConsumer],
  providers: [
    ProcessStore,
    ProcessCreationService,
    ProcessQueryService,
    ProcessStepsService,
    ProcessNavigationService,
    ProcessOverrideService,
    ProcessTimeoutService,
    ValidationsClient,
    StepValidations,
    ProcessCodesService,
    ProcessLogsService,
  ],
  exports: [ProcessStore, ProcessQueryService, ProcessCreationService, ValidationsClient],
})
export class ProcessesModule {}
