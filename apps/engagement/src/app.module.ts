import { PlatformModule, ServiceDefinition, ServiceOptions } from '@kyc/platform';
import { DynamicModule, Module } from '@nestjs/common';

import { EngagementConfig, loadEngagementConfig } from './config/engagement.config';
import { engagementEntities, engagementMigrations } from './database/engagement.datasource';

/** Validations API: boots, migrates its schema and answers /health; its features come in their own issue. */
@Module({})
export class AppModule {
  static register(config: EngagementConfig, options: ServiceOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          config,
          entities: engagementEntities,
          migrations: engagementMigrations,
          clock: options.clock,
        }),
      ],
    };
  }
}

export function engagementService(
  env: NodeJS.ProcessEnv = process.env,
  options: ServiceOptions = {},
): ServiceDefinition {
  const config = loadEngagementConfig(env);
  return {
    config,
    module: AppModule.register(config, options),
    entities: engagementEntities,
    migrations: engagementMigrations,
    title: 'Validations API',
    description: 'Document, face, e-mail and phone validators',
  };
}
