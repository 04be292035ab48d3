import { Module } from '@nestjs/common';
import { CheckFinishedConsumer } from './check-finished.consumer';

@Module({ controllers: [CheckFinishedConsumer] })
export class CheckResultsModule {}
