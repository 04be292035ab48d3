import { PlatformModule, ServiceDefinition, ServiceOptions } from '@kyc/platform';
import { DynamicModule, Module } from '@nestjs/common';

import { CustomersConfig, loadCustomersConfig } from './config/customers.config';
import { customersEntities, customersMigrations } from './database/customers.datasource';

/** Validations API: boots, migrates its schema and answers /health; its features come in their own issue. */
@Module({})
export class AppModule {
  static register(config: CustomersConfig, options: ServiceOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          config,
          entities: customersEntities,
          migrations: customersMigrations,
          clock: options.clock,
        }),
      ],
    };
  }
}

export function customersService(
  env: NodeJS.ProcessEnv = process.env,
  options: ServiceOptions = {},
): ServiceDefinition {
  const config = loadCustomersConfig(env);
  return {
    config,
    module: AppModule.register(config, options),
    entities: customersEntities,
    migrations: customersMigrations,
    title: 'Validations API',
    description: 'Document, face, e-mail and phone validators',
  };
}
