import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { CollectorsModule } from '../collectors/collectors.module';
import { ChecksConfig } from '../config/checks.config';
import { CollectorCredentialEntity } from './collector-credential.entity';
import { CredentialsController } from './credentials.controller';
import { CredentialsService } from './credentials.service';
import { CredentialsCipher } from './credentials-cipher';

@Module({
  imports: [TypeOrmModule.forFeature([CollectorCredentialEntity]), CollectorsModule],
  controllers: [CredentialsController],
  providers: [
    {
      provide: CredentialsCipher,
      inject: [ChecksConfig],
      useFactory: (config: ChecksConfig) => new CredentialsCipher(config.credentialsKey),
    },
    CredentialsService,
  ],
  exports: [CredentialsService, CredentialsCipher],
})
export class CredentialsModule {}
