import { PlatformModule, ServiceDefinition, ServiceOptions } from '@kyc/platform';
import { DynamicModule, Module } from '@nestjs/common';

import { CustomersConfig, loadCustomersConfig } from './config/customers.config';
import { ContactsModule } from './contacts/contacts.module';
import { customersEntities, customersMigrations } from './database/customers.datasource';
import { DecisionVariablesModule } from './decision-variables/decision-variables.module';
import { ProfilesModule } from './profiles/profiles.module';
import { SegmentsModule } from './segments/segments.module';

/** Customers API: contacts, customer profiles built from every service's events, segments, decision variables. */
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
        ContactsModule,
        ProfilesModule,
        SegmentsModule,
        DecisionVariablesModule,
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
    consumesEvents: true,
    title: 'Customers API',
    description:
      'Contacts, contact properties and the customers view: profiles, transactions, segments, decision variables',
  };
}
