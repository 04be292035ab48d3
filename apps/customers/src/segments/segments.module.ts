import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { SegmentEntity } from './segment.entity';
import { SegmentComputeStore } from './segment-compute.store';
import { SegmentsController } from './segments.controller';
import { SegmentsService } from './segments.service';

@Module({
  imports: [TypeOrmModule.forFeature([SegmentEntity])],
  controllers: [SegmentsController],
  providers: [SegmentsService, SegmentComputeStore],
})
export class SegmentsModule {}
