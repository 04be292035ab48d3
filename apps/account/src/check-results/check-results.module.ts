import { Module } from '@nestjs/common';
import { RulesModule } from '../rules/rules.module';
import { CheckCreatedConsumer } from './check-created.consumer';
import { CheckFinishedConsumer } from './check-finished.consumer';

@Module({ imports: [RulesModule], controllers: [CheckFinishedConsumer, CheckCreatedConsumer] })
export class CheckResultsModule {}
