import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule, ServiceDefinition, ServiceOptions } from '@kyc/platform';
import { ChecksModule } from './checks/checks.module';
import { ChecksConfig, loadChecksConfig } from './config/checks.config';
import { checksEntities, checksMigrations } from './database/checks.datasource';

@Module({})
export class AppModule {
  static register(config: ChecksConfig, options: ServiceOptions = {}): DynamicModule {
    return { module: AppModule, imports: [PlatformModule.forRoot({ config, entities: checksEntities, migrations: checksMigrations, clock: options.clock }), ChecksModule] };
  }
}

export function checksService(env: NodeJS.ProcessEnv = process.env, options: ServiceOptions = {}): ServiceDefinition {
  const config = loadChecksConfig(env);
  return { config, module: AppModule.register(config, options), entities: checksEntities, migrations: checksMigrations, title: 'Checks API', description: 'Background checks on people, vehicles and companies' };
}
