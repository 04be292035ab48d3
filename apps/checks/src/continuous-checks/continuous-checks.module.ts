import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ChecksModule } from '../checks/checks.module';
import { EngineModule } from '../engine/engine.module';
import { ContinuousCheckEntity } from './continuous-check.entity';
import { ContinuousCheckRunEntity } from './continuous-check-run.entity';
import { ContinuousCheckRunner } from './continuous-check-runner';
import { ContinuousChecksController } from './continuous-checks.controller';
import { ContinuousChecksService } from './continuous-checks.service';

@Module({
  imports: [TypeOrmModule.forFeature([ContinuousCheckEntity, ContinuousCheckRunEntity]), ChecksModule, EngineModule],
  controllers: [ContinuousChecksController],
  providers: [ContinuousChecksService, ContinuousCheckRunner],
  exports: [ContinuousChecksService],
})
export class ContinuousChecksModule {}
