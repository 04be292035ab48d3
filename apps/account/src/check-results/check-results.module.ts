import { Module } from '@nestjs/common';

import { RulesModule } from '../rules/rules.module';
import { CheckFinishedConsumer } from './check-finished.consumer';
import { RuleCheckCreatedConsumer } from './rule-check-created.consumer';

@Module({ imports: [RulesModule], controllers: [CheckFinishedConsumer, RuleCheckCreatedConsumer] })
export class CheckResultsModule {}
