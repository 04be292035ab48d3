import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { FlowsModule } from '../flows/flows.module';
import { ProcessesModule } from '../processes/processes.module';
import { ProcessFileEntity } from './process-file.entity';
import { ProcessFilesController } from './process-files.controller';
import { ProcessFilesService } from './process-files.service';

@Module({
  imports: [TypeOrmModule.forFeature([ProcessFileEntity]), ProcessesModule, FlowsModule],
  controllers: [ProcessFilesController],
  providers: [ProcessFilesService],
})
export class ProcessFilesModule {}
