import { Module } from '@nestjs/common';

import { CollectorsModule } from '../collectors/collectors.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { EngineModule } from '../engine/engine.module';
import { SandboxProviderService } from './sandbox-provider.service';
import { WebhookSigner } from './webhook-signer';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

@Module({
  imports: [CollectorsModule, CredentialsModule, EngineModule],
  controllers: [WebhooksController],
  providers: [WebhookSigner, WebhooksService, SandboxProviderService],
  exports: [WebhookSigner],
})
export class WebhooksModule {}
