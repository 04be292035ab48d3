import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { MediaModule } from '../media/media.module';
import { ValidationEntity } from '../validations/validation.entity';
import { ValidationsModule } from '../validations/validations.module';
import { ReviewsController } from './reviews.controller';
import { ReviewsService } from './reviews.service';

/** Operators' manual review of validations held for it (`/v1/admin/reviews`). */
@Module({
  imports: [TypeOrmModule.forFeature([ValidationEntity]), ValidationsModule, MediaModule],
  controllers: [ReviewsController],
  providers: [ReviewsService],
})
export class ReviewsModule {}
