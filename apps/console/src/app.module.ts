import { PlatformModule, ServiceDefinition, ServiceOptions } from '@kyc/platform';
import { DynamicModule, Module } from '@nestjs/common';

import { ConsoleConfig, loadConsoleConfig } from './config/console.config';
import { ConsoleModule } from './console.module';
import { consoleEntities, consoleMigrations } from './database/console.datasource';

/** The operator console: the single-page application and its backend-for-frontend (sessions, calls to the services). */
@Module({})
export class AppModule {
  static register(config: ConsoleConfig, options: ServiceOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          config,
          entities: consoleEntities,
          migrations: consoleMigrations,
          clock: options.clock,
        }),
        ConsoleModule,
      ],
    };
  }
}

export function consoleService(env: NodeJS.ProcessEnv = process.env, options: ServiceOptions = {}): ServiceDefinition {
  const config = loadConsoleConfig(env);
  return {
    config,
    module: AppModule.register(config, options),
    entities: consoleEntities,
    migrations: consoleMigrations,
    title: 'Console',
    description: 'The operator console: sign-in, sessions and the page calls to the services on behalf of the user',
  };
}
