import { sandboxPhoneGatewayProvider } from '@kyc/platform';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ApiKeysModule } from '../api-keys/api-keys.module';
import { FlowsModule } from '../flows/flows.module';
import { ProcessesModule } from '../processes/processes.module';
import { AccessLinksService } from './access-links.service';
import { LinkMailerProvider } from './channels/link-mailer';
import { LinkSmsSender, SandboxLinkSmsSender } from './channels/link-sms-sender';
import { EngagementMessagingAppSender, MessagingAppSender } from './channels/msgapp-sender';
import { SandboxPhoneController } from './channels/sandbox-phone.controller';
import { SandboxPhoneMessageEntity } from './channels/sandbox-phone-message.entity';
import { LinkDeliveryEntity } from './link-delivery.entity';
import { LinkDeliveryService } from './link-delivery.service';
import { WebIntegrationController } from './web-integration.controller';

@Module({
  imports: [
    TypeOrmModule.forFeature([LinkDeliveryEntity, SandboxPhoneMessageEntity]),
    ApiKeysModule,
    FlowsModule,
    ProcessesModule,
  ],
  controllers: [WebIntegrationController, SandboxPhoneController],
  providers: [
    AccessLinksService,
    LinkDeliveryService,
    LinkMailerProvider,
    sandboxPhoneGatewayProvider(SandboxPhoneMessageEntity),
    { provide: LinkSmsSender, useClass: SandboxLinkSmsSender },
    { provide: MessagingAppSender, useClass: EngagementMessagingAppSender },
  ],
})
export class WebIntegrationModule {}
