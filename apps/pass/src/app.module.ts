import { PlatformModule, ServiceDefinition, ServiceOptions } from '@kyc/platform';
import { DynamicModule, Module } from '@nestjs/common';

import { ApplicationsModule } from './applications/applications.module';
import { ApprovalsModule } from './approvals/approvals.module';
import { ClaimsModule } from './claims/claims.module';
import { loadPassConfig, PassConfig } from './config/pass.config';
import { CryptoModule } from './crypto/crypto.module';
import { passEntities, passMigrations } from './database/pass.datasource';
import { EmbedModule } from './embed/embed.module';
import { InteractionsModule } from './interactions/interactions.module';
import { KeysModule } from './keys/keys.module';
import { MessagingModule } from './messaging/messaging.module';
import { PagesModule } from './pages/pages.module';
import { ProviderModule } from './provider/provider.module';
import { UserinfoModule } from './userinfo/userinfo.module';
import { UsersModule } from './users/users.module';
import { ValidationsModule } from './validations/validations.module';

/** Pass: the OAuth 2.0 / OpenID Connect identity provider of spec 3, built on oidc-provider; one module per resource. */
@Module({})
export class AppModule {
  static register(config: PassConfig, options: ServiceOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({ config, entities: passEntities, migrations: passMigrations, clock: options.clock }),
        CryptoModule,
        // In this order: it is the order of the paths in openapi/pass.json.
        ApplicationsModule,
        UsersModule,
        KeysModule,
        MessagingModule,
        ProviderModule,
        InteractionsModule,
        UserinfoModule,
        ApprovalsModule,
        ValidationsModule,
        ClaimsModule,
        EmbedModule,
        PagesModule,
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
