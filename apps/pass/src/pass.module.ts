import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ApplicationEntity } from './applications/application.entity';
import { ApplicationsController } from './applications/applications.controller';
import { ApplicationsService } from './applications/applications.service';
import { ApprovalAttachmentEntity } from './approvals/approval-attachment.entity';
import { ApprovalAttachmentsController } from './approvals/approval-attachments.controller';
import { ApprovalOutcomeEntity } from './approvals/approval-outcome.entity';
import { ApprovalOutcomesService } from './approvals/approval-outcomes.service';
import { ApprovalsController } from './approvals/approvals.controller';
import { ApprovalsService } from './approvals/approvals.service';
import { AttachmentsService } from './approvals/attachments.service';
import { UploadBodyParser } from './approvals/upload-body.parser';
import { AccountValidationEntity } from './claims/account-validation.entity';
import { CheckFinishedConsumer } from './claims/check-finished.consumer';
import { ClaimStoreService } from './claims/claim-store.service';
import { IdentityClaimsService } from './claims/identity-claims.service';
import { IdentityEventsConsumer } from './claims/identity-events.consumer';
import { IdentityProcessEntity } from './claims/identity-process.entity';
import { PassConfig } from './config/pass.config';
import { EmbedController } from './embed/embed.controller';
import { InteractionsController } from './interactions/interactions.controller';
import { InteractionsService } from './interactions/interactions.service';
import { JwksController } from './keys/jwks.controller';
import { SigningKeysController } from './keys/signing-keys.controller';
import { SigningKeysService } from './keys/signing-keys.service';
import { SignInMailer } from './mail/sign-in-mailer';
import { PhoneMessenger } from './messaging/phone-messenger';
import { SandboxMessagesController } from './messaging/sandbox-messages.controller';
import { SandboxPhoneMessenger } from './messaging/sandbox-phone-messenger';
import { PagesController } from './pages/pages.controller';
import { AttachmentCheck } from './provider/attachment-check';
import { ProviderController } from './provider/provider.controller';
import { ProviderService } from './provider/provider.service';
import { UserinfoController } from './userinfo/userinfo.controller';
import { UserinfoService } from './userinfo/userinfo.service';
import { PassUserEntity } from './users/pass-user.entity';
import { PassUsersController } from './users/pass-users.controller';
import { PassUsersService } from './users/pass-users.service';
import { ExternalValidationEntity } from './validations/external-validation.entity';
import { ValidationsController } from './validations/validations.controller';
import { ValidationsService } from './validations/validations.service';

/** The identity provider: applications, the mounted oidc-provider, its pages, userinfo and the claim store. */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      ApplicationEntity,
      PassUserEntity,
      ApprovalAttachmentEntity,
      ApprovalOutcomeEntity,
      ExternalValidationEntity,
      AccountValidationEntity,
      IdentityProcessEntity,
    ]),
  ],
  controllers: [
    ApplicationsController,
    PassUsersController,
    SigningKeysController,
    JwksController,
    SandboxMessagesController,
    ProviderController,
    InteractionsController,
    UserinfoController,
    ApprovalsController,
    CheckFinishedConsumer,
    IdentityEventsConsumer,
    ApprovalAttachmentsController,
    ValidationsController,
    EmbedController,
    PagesController,
  ],
  providers: [
    ApplicationsService,
    PassUsersService,
    SigningKeysService,
    SignInMailer,
    ProviderService,
    InteractionsService,
    UserinfoService,
    ApprovalsService,
    ClaimStoreService,
    IdentityClaimsService,
    AttachmentsService,
    { provide: AttachmentCheck, useExisting: AttachmentsService },
    ApprovalOutcomesService,
    UploadBodyParser,
    ValidationsService,
    {
      provide: PhoneMessenger,
      inject: [PassConfig],
      useFactory: (c: PassConfig) =>
        new SandboxPhoneMessenger(c.PASS_SANDBOX_UNREACHABLE_PHONES, c.PASS_SANDBOX_OUTBOX_DIR),
    },
  ],
})
export class PassModule {}
