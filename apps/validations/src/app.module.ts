import { PlatformModule, ServiceDefinition, ServiceOptions } from '@kyc/platform';
import { DynamicModule, Module } from '@nestjs/common';

import { loadValidationsConfig,ValidationsConfig } from './config/validations.config';
import { validationsEntities, validationsMigrations } from './database/validations.datasource';

/** Validations API: boots, migrates its schema and answers /health; its features come in their own issue. */
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
  };
}
