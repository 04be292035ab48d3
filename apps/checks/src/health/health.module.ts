import { Module } from '@nestjs/common';

import { CollectorsModule } from '../collectors/collectors.module';
import { CollectorRunStore } from './collector-run.store';
import { DatabaseHealthController } from './health.controller';
import { HealthService } from './health.service';

@Module({
  imports: [CollectorsModule],
  controllers: [DatabaseHealthController],
  providers: [HealthService, CollectorRunStore],
})
export class DatabaseHealthModule {}
