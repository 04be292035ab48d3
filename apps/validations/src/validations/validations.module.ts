import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { AccountsModule } from '../accounts/accounts.module';
import { ValidatorAccountEntity } from '../accounts/validator-account.entity';
import { CustomTypesModule } from '../custom-types/custom-types.module';
import { EnginesModule } from '../engines/engines.module';
import { EnrollmentEntity } from '../enrollments/enrollment.entity';
import { EnrollmentsModule } from '../enrollments/enrollments.module';
import { MediaModule } from '../media/media.module';
import { OtpModule } from '../otp/otp.module';
import { TenantFeaturesModule } from '../tenant-features/tenant-features.module';
import { ValidatorConfigModule } from '../validator-config/validator-config.module';
import { OtpDeliveryWorker } from './otp-delivery.worker';
import { SandboxSpeechRecognizer, SpeechRecognizer } from './speech/speech-recognizer';
import { CreateValidationUseCase } from './use-cases/create-validation.use-case';
import { PerformValidationUseCase } from './use-cases/perform-validation.use-case';
import { ValidationAdmission } from './use-cases/validation-admission';
import { ValidationEntity } from './validation.entity';
import { ValidationInstructions } from './validation-instructions';
import { ValidationReadStore } from './validation-read.store';
import { ValidationRetentionService } from './validation-retention.service';
import { ValidationRunner } from './validation-runner';
import { ValidationStateService } from './validation-state.service';
import { ValidationsController } from './validations.controller';
import { ValidationsService } from './validations.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([ValidationEntity, ValidatorAccountEntity, EnrollmentEntity]),
    AccountsModule,
    EnrollmentsModule,
    MediaModule,
    OtpModule,
    ValidatorConfigModule,
    EnginesModule,
    CustomTypesModule,
    TenantFeaturesModule,
  ],
  controllers: [ValidationsController],
  providers: [
    ValidationsService,
    CreateValidationUseCase,
    PerformValidationUseCase,
    ValidationAdmission,
    ValidationInstructions,
    ValidationReadStore,
    ValidationRetentionService,
    ValidationStateService,
    ValidationRunner,
    OtpDeliveryWorker,
    { provide: SpeechRecognizer, useClass: SandboxSpeechRecognizer },
  ],
  exports: [ValidationsService, ValidationStateService],
})
export class ValidationsModule {}
