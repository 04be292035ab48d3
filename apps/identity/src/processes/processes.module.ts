import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ApiKeysModule } from '../api-keys/api-keys.module';
import { FlowsModule } from '../flows/flows.module';
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
  imports: [TypeOrmModule.forFeature([ProcessEntity]), FlowsModule, ApiKeysModule],
  controllers: [ProcessesController, ValidationFinishedConsumer],
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
  ],
  exports: [ProcessStore, ProcessQueryService, ProcessCreationService, ValidationsClient],
})
export class ProcessesModule {}
