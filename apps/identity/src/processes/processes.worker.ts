import { JobQueueService } from '@kyc/platform';
import { Injectable, OnModuleInit } from '@nestjs/common';

import { CREATE_VALIDATION_QUEUE, CreateValidationJob, PROCESS_TIMEOUT_QUEUE, TimeoutJob } from './process.store';
import { CreateStepValidationUseCase } from './use-cases/create-step-validation.use-case';
import { RunProcessTimerUseCase } from './use-cases/run-process-timer.use-case';

/**
 * The processes' jobs:
 * - `identity.create-validation` (CreateStepValidationUseCase): creates a validator step's
 *   validation in the validations service and records it on the step;
 * - `identity.process-timeout` (RunProcessTimerUseCase, transactional): the process's deadline.
 */
@Injectable()
export class ProcessesWorker implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueueService,
    private readonly createStepValidation: CreateStepValidationUseCase,
    private readonly runTimer: RunProcessTimerUseCase,
  ) {}

  onModuleInit(): void {
    this.jobs.register<CreateValidationJob>(
      CREATE_VALIDATION_QUEUE,
      (job, m) => this.createStepValidation.execute(job, m),
      { concurrency: 4 },
    );
    this.jobs.register<TimeoutJob>(PROCESS_TIMEOUT_QUEUE, (job, m) => this.runTimer.execute(job, m), {
      transactional: true,
    });
  }
}
