import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { CollectorsModule } from '../collectors/collectors.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { CheckEntity } from './check.entity';
import { CheckStore } from './check.store';
import { CheckDatabaseEntity } from './check-database.entity';
import { CheckRunStore } from './check-run.store';
import { EngineWorker } from './engine.worker';
import { FinishedEvents } from './finished-events';
import { CollectDatabaseUseCase } from './use-cases/collect-database.use-case';
import { RecordOutcomeUseCase } from './use-cases/record-outcome.use-case';
import { RecordWebhookAnswerUseCase } from './use-cases/record-webhook-answer.use-case';
import { RunCheckTimerUseCase } from './use-cases/run-check-timer.use-case';
import { StartCheckUseCase } from './use-cases/start-check.use-case';

/** The check aggregate (CheckStore creates it, CheckRunStore runs it) and the engine that runs checks (EngineWorker and its use cases). */
@Module({
  imports: [TypeOrmModule.forFeature([CheckEntity, CheckDatabaseEntity]), CollectorsModule, CredentialsModule],
  providers: [
    CheckStore,
    CheckRunStore,
    FinishedEvents,
    EngineWorker,
    StartCheckUseCase,
    CollectDatabaseUseCase,
    RecordOutcomeUseCase,
    RecordWebhookAnswerUseCase,
    RunCheckTimerUseCase,
  ],
  exports: [CheckStore, FinishedEvents, RecordWebhookAnswerUseCase],
})
export class EngineModule {}
