import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ProviderModule } from '../provider/provider.module';
import { LineEntity } from './line.entity';
import { LinesController } from './lines.controller';
import { LinesService } from './lines.service';

@Module({
  imports: [TypeOrmModule.forFeature([LineEntity]), ProviderModule],
  controllers: [LinesController],
  providers: [LinesService],
  exports: [LinesService, ProviderModule],
})
export class LinesModule {}
