import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ProcessesModule } from '../processes/processes.module';
import { ProcessLogEntity } from './process-log.entity';
import { ProcessLogsController } from './process-logs.controller';
import { ProcessLogsService } from './process-logs.service';

/** Logs a process's front end enqueues (`POST /v1/processes/enqueue-log`), checked against the caller's processes. */
@Module({
  imports: [TypeOrmModule.forFeature([ProcessLogEntity]), ProcessesModule],
  controllers: [ProcessLogsController],
  providers: [ProcessLogsService],
})
export class ProcessLogsModule {}
