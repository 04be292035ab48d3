import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule, ServiceDefinition } from '@kyc/platform';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { IdentityConfig, loadIdentityConfig } from './config/identity.config';
import { identityEntities, identityMigrations } from './database/identity.datasource';

@Module({})
export class AppModule {
  static register(config: IdentityConfig): DynamicModule {
    return { module: AppModule, imports: [PlatformModule.forRoot({ config, entities: identityEntities, migrations: identityMigrations }), ApiKeysModule] };
  }
}

export function identityService(env: NodeJS.ProcessEnv = process.env): ServiceDefinition {
  const config = loadIdentityConfig(env);
  return { config, module: AppModule.register(config), entities: identityEntities, migrations: identityMigrations, title: 'Identity API', description: 'Identity-verification processes and API keys' };
}
