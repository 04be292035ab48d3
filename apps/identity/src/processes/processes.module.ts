import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ApiKeysModule } from '../api-keys/api-keys.module';
import { FlowsModule } from '../flows/flows.module';
import { ProcessEntity } from './process.entity';
import { ProcessStore } from './process.store';
import { ProcessesController } from './processes.controller';
import { ProcessesService } from './processes.service';
import { ProcessesWorker } from './processes.worker';
import { StepValidations } from './step-validations';
import { AddVerificationUseCase } from './use-cases/add-verification.use-case';
import { CreateProcessUseCase } from './use-cases/create-process.use-case';
import { CreateStepValidationUseCase } from './use-cases/create-step-validation.use-case';
import { DeleteProcessUseCase } from './use-cases/delete-process.use-case';
import { OverrideStatusUseCase } from './use-cases/override-status.use-case';
import { RecordValidationOutcomeUseCase } from './use-cases/record-validation-outcome.use-case';
import { RunProcessTimerUseCase } from './use-cases/run-process-timer.use-case';
import { StepBackUseCase } from './use-cases/step-back.use-case';
import { SubmitCodeUseCase } from './use-cases/submit-code.use-case';
import { SubmitStepUseCase } from './use-cases/submit-step.use-case';
import { UpdateProcessUseCase } from './use-cases/update-process.use-case';
import { ValidationFinishedConsumer } from './validation-finished.consumer';
import { ValidationsClient } from './validations.client';

@Module({
  imports: [TypeOrmModule.forFeature([ProcessEntity]), FlowsModule, ApiKeysModule],
  controllers: [ProcessesController, ValidationFinishedConsumer],
  providers: [
    ProcessStore,
    ProcessesService,
    ProcessesWorker,
    CreateProcessUseCase,
    SubmitStepUseCase,
    SubmitCodeUseCase,
    CreateStepValidationUseCase,
    RecordValidationOutcomeUseCase,
    UpdateProcessUseCase,
    StepBackUseCase,
    AddVerificationUseCase,
    DeleteProcessUseCase,
    OverrideStatusUseCase,
    RunProcessTimerUseCase,
    ValidationsClient,
    StepValidations,
  ],
  exports: [ProcessStore, ProcessesService, CreateProcessUseCase, ValidationsClient],
})
export class ProcessesModule {}
