import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { LinesModule } from '../lines/lines.module';
import { MediaEntity } from './media.entity';
import { MediaUploadSpool } from './media-upload/media-upload-spool';
import { OutboundEntity, OutboundQualityEntity } from './outbound.entity';
import { OutboundsController } from './outbounds.controller';
import { OutboundsService } from './outbounds.service';
import { QualityReviewWorker } from './quality-review.worker';

@Module({
  imports: [TypeOrmModule.forFeature([OutboundEntity, OutboundQualityEntity, MediaEntity]), LinesModule],
  controllers: [OutboundsController],
  providers: [OutboundsService, QualityReviewWorker, MediaUploadSpool],
  exports: [OutboundsService, LinesModule],
})
export class OutboundsModule {}
