import { PlatformModule, ServiceDefinition, ServiceOptions } from '@kyc/platform';
import { DynamicModule, Module } from '@nestjs/common';

import { loadPassConfig, PassConfig } from './config/pass.config';
import { CryptoModule } from './crypto/crypto.module';
import { passEntities, passMigrations } from './database/pass.datasource';
import { PassModule } from './pass.module';

/** Pass: the OAuth 2.0 / OpenID Connect identity provider of spec 3, built on oidc-provider. */
@Module({})
export class AppModule {
  static register(config: PassConfig, options: ServiceOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({ config, entities: passEntities, migrations: passMigrations, clock: options.clock }),
        CryptoModule,
        PassModule,
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
    consumesEvents: true,
    title: 'Pass API',
    description: 'OAuth 2.0 / OpenID Connect identity provider: applications, authorization, tokens, userinfo, CIBA',
  };
}
