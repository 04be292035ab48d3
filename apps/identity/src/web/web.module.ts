import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ApiKeysModule } from '../api-keys/api-keys.module';
import { FlowsModule } from '../flows/flows.module';
import { ProcessEntity } from '../processes/process.entity';
import { ProcessesModule } from '../processes/processes.module';
import { WebPageController } from './web-page.controller';
import { WebPageService } from './web-page.service';
import { WebUploadService } from './web-upload.service';

/** The end user's page: server-rendered HTML walking a process's steps with its temporary key. */
@Module({
  imports: [TypeOrmModule.forFeature([ProcessEntity]), ProcessesModule, FlowsModule, ApiKeysModule],
  controllers: [WebPageController],
  providers: [WebPageService, WebUploadService],
})
export class WebModule {}
