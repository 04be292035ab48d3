import { SecretSealer } from '@kyc/platform';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { EngagementConfig } from '../config/engagement.config';
import { CredentialsService } from '../credentials/credentials.service';
import { ProviderCredentialEntity } from '../credentials/provider-credential.entity';
import { MessagingProvider } from './messaging-provider';
import { ProviderHttpClient } from './provider-http.client';

/** The messaging-provider adapter and the tenants' sealed credentials for it. */
@Module({
  imports: [TypeOrmModule.forFeature([ProviderCredentialEntity])],
  providers: [
    {
      provide: SecretSealer,
      inject: [EngagementConfig],
      useFactory: (config: EngagementConfig) => new SecretSealer(config.credentialsKey),
    },
    CredentialsService,
    ProviderHttpClient,
    MessagingProvider,
  ],
  exports: [CredentialsService, MessagingProvider],
})
export class ProviderModule {}
