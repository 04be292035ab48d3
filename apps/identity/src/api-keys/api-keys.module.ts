import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { FlowsModule } from '../flows/flows.module';
import { ApiKeyEntity } from './api-key.entity';
import { AdminApiKeysController, ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity]), FlowsModule],
  controllers: [ApiKeysController, AdminApiKeysController],
  providers: [ApiKeysService],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
