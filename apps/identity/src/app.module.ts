import { PlatformModule, ServiceDefinition, ServiceOptions } from '@kyc/platform';
import { DynamicModule, Module } from '@nestjs/common';

import { issueKeyCommand } from './api-keys/api-keys.admin';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { IdentityConfig, loadIdentityConfig } from './config/identity.config';
import { identityEntities, identityMigrations } from './database/identity.datasource';
import { FlowsModule } from './flows/flows.module';
import { ProcessFilesModule } from './process-files/process-files.module';
import { ProcessLogsModule } from './process-logs/process-logs.module';
import { ProcessesModule } from './processes/processes.module';
import { WalletModule } from './wallet/wallet.module';
import { WebModule } from './web/web.module';
import { WebIntegrationModule } from './web-integration/web-integration.module';

@Module({})
export class AppModule {
  static register(config: IdentityConfig, options: ServiceOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          config,
          entities: identityEntities,
          migrations: identityMigrations,
          clock: options.clock,
        }),
        ApiKeysModule,
        FlowsModule,
        ProcessLogsModule,
        ProcessesModule,
        ProcessFilesModule,
        WebIntegrationModule,
        WebModule,
        WalletModule,
      ],
    };
  }
}

export function identityService(env: NodeJS.ProcessEnv = process.env, options: ServiceOptions = {}): ServiceDefinition {
  const config = loadIdentityConfig(env);
  return {
    config,
    module: AppModule.register(config, options),
    entities: identityEntities,
    migrations: identityMigrations,
    title: 'Identity API',
    consumesEvents: true,
    description: 'Identity-verification processes and API keys',
    adminCommands: { 'issue-key': issueKeyCommand },
  };
}
