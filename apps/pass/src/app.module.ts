import { PlatformModule, ServiceDefinition, ServiceOptions } from '@kyc/platform';
import { DynamicModule, Module } from '@nestjs/common';

import { loadPassConfig,PassConfig } from './config/pass.config';
import { passEntities, passMigrations } from './database/pass.datasource';

/** Validations API: boots, migrates its schema and answers /health; its features come in their own issue. */
@Module({})
export class AppModule {
  static register(config: PassConfig, options: ServiceOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({ config, entities: passEntities, migrations: passMigrations, clock: options.clock }),
      ],
    };
  }
}

export function passService(env: NodeJS.ProcessEnv = process.env, options: ServiceOptions = {}): ServiceDefinition {
  const config = loadPassConfig(env);
  return {
    config,
    module: AppModule.register(config, options),
    entities: passEntities,
    migrations: passMigrations,
    title: 'Validations API',
    description: 'Document, face, e-mail and phone validators',
  };
}
