import { Module } from '@nestjs/common';
import { RulesModule } from '../rules/rules.module';
import { RuleCheckCreatedConsumer } from './rule-check-created.consumer';
import { CheckFinishedConsumer } from './check-finished.consumer';

@Module({ imports: [RulesModule], controllers: [CheckFinishedConsumer, RuleCheckCreatedConsumer] })
export class CheckResultsModule {}
