import { Module } from '@nestjs/common';

import { ApplicationsModule } from '../applications/applications.module';
import { KeysModule } from '../keys/keys.module';
import { MessagingModule } from '../messaging/messaging.module';
import { UsersModule } from '../users/users.module';
import { ProviderController } from './provider.controller';
import { ProviderService } from './provider.service';

/**
 * The mounted oidc-provider: authorization, token, CIBA, revocation, introspection, discovery. Its
 * AttachmentCheck port is answered by the approvals (ApprovalsModule is global and binds it).
 */
@Module({
  imports: [ApplicationsModule, KeysModule, MessagingModule, UsersModule],
  controllers: [ProviderController],
  providers: [ProviderService],
  exports: [ProviderService],
})
export class ProviderModule {}
