import { SecretSealer } from '@kyc/platform';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { CollectorsModule } from '../collectors/collectors.module';
import { ChecksConfig } from '../config/checks.config';
import { CollectorCredentialEntity } from './collector-credential.entity';
import { CollectorCredentialStore } from './collector-credential.store';
import { CredentialsController } from './credentials.controller';
import { CredentialsService } from './credentials.service';

@Module({
  imports: [TypeOrmModule.forFeature([CollectorCredentialEntity]), CollectorsModule],
  controllers: [CredentialsController],
  providers: [
    CollectorCredentialStore,
    {
      provide: SecretSealer,
      inject: [ChecksConfig],
      useFactory: (config: ChecksConfig) => new SecretSealer(config.credentialsKey),
    },
    CredentialsService,
  ],
  exports: [CredentialsService, SecretSealer],
})
export class CredentialsModule {}
