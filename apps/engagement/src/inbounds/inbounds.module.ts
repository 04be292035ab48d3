import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { LinesModule } from '../lines/lines.module';
import { InboundEntity, SessionEntity } from './inbound.entity';
import { InboundsController } from './inbounds.controller';
import { InboundsService } from './inbounds.service';

@Module({
  imports: [TypeOrmModule.forFeature([InboundEntity, SessionEntity]), LinesModule],
  controllers: [InboundsController],
  providers: [InboundsService],
  exports: [InboundsService],
})
export class InboundsModule {}
