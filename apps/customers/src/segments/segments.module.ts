import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { SegmentEntity } from './segment.entity';
import { SegmentComputeService } from './segment-compute.service';
import { SegmentsController } from './segments.controller';
import { SegmentsService } from './segments.service';

@Module({
  imports: [TypeOrmModule.forFeature([SegmentEntity])],
  controllers: [SegmentsController],
  providers: [SegmentsService, SegmentComputeService],
})
export class SegmentsModule {}
