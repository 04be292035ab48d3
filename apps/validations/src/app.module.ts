import { PlatformModule, ServiceDefinition, ServiceOptions } from '@kyc/platform';
import { DynamicModule, Module } from '@nestjs/common';

import { AccountsModule } from './accounts/accounts.module';
import { loadValidationsConfig, ValidationsConfig } from './config/validations.config';
import { validationsEntities, validationsMigrations } from './database/validations.datasource';
import { EnrollmentsModule } from './enrollments/enrollments.module';
import { ReviewsModule } from './reviews/reviews.module';
import { StatusModule } from './status/status.module';
import { TenantFeaturesModule } from './tenant-features/tenant-features.module';
import { ValidationsModule } from './validations/validations.module';
import { ValidatorConfigModule } from './validator-config/validator-config.module';

/** Validations API: the validators suite (accounts, enrollments, validations, config, status, review queue). */
@Module({})
export class AppModule {
  static register(config: ValidationsConfig, options: ServiceOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          config,
          entities: validationsEntities,
          migrations: validationsMigrations,
          clock: options.clock,
        }),
        AccountsModule,
        EnrollmentsModule,
        ValidationsModule,
        ReviewsModule,
        ValidatorConfigModule,
        TenantFeaturesModule,
        StatusModule,
      ],
    };
  }
}

export function validationsService(
  env: NodeJS.ProcessEnv = process.env,
  options: ServiceOptions = {},
): ServiceDefinition {
  const config = loadValidationsConfig(env);
  return {
    config,
    module: AppModule.register(config, options),
    entities: validationsEntities,
    migrations: validationsMigrations,
    title: 'Validations API',
    description: 'Document, face, e-mail and phone validators',
    consumesEvents: true,
  };
}
