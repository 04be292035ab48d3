import { SecretSealer } from '@kyc/platform';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { EngagementConfig } from '../config/engagement.config';
import { CredentialsService } from './credentials.service';
import { ProviderCredentialEntity } from './provider-credential.entity';
import { ProviderCredentialStore } from './provider-credential.store';

/** The tenants' sealed credentials for the messaging provider. */
@Module({
  imports: [TypeOrmModule.forFeature([ProviderCredentialEntity])],
  providers: [
    {
      provide: SecretSealer,
      inject: [EngagementConfig],
      useFactory: (config: EngagementConfig) => new SecretSealer(config.credentialsKey),
    },
    CredentialsService,
    ProviderCredentialStore,
  ],
  exports: [CredentialsService],
})
export class CredentialsModule {}
