import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { FinishedCheckEntity } from './finished-check.entity';
import { FinishedChecksService } from './finished-checks.service';

/** The recorded finished checks, for the modules that read them (the rules' dry run). */
@Module({
  imports: [TypeOrmModule.forFeature([FinishedCheckEntity])],
  providers: [FinishedChecksService],
  exports: [FinishedChecksService],
})
export class FinishedChecksModule {}
