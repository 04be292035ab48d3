import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { AccountsModule } from '../accounts/accounts.module';
import { EnginesModule } from '../engines/engines.module';
import { MediaModule } from '../media/media.module';
import { TenantFeaturesModule } from '../tenant-features/tenant-features.module';
import { ValidatorConfigModule } from '../validator-config/validator-config.module';
import { EnrollmentEntity } from './enrollment.entity';
import { EnrollmentsController } from './enrollments.controller';
import { EnrollmentsService } from './enrollments.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([EnrollmentEntity]),
    AccountsModule,
    MediaModule,
    TenantFeaturesModule,
    ValidatorConfigModule,
    EnginesModule,
  ],
  controllers: [EnrollmentsController],
  providers: [EnrollmentsService],
  exports: [EnrollmentsService],
})
export class EnrollmentsModule {}
