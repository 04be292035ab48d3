import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ApplicationsModule } from '../applications/applications.module';
import { AttachmentCheck } from '../provider/attachment-check';
import { ProviderModule } from '../provider/provider.module';
import { ApprovalAttachmentEntity } from './approval-attachment.entity';
import { ApprovalAttachmentsController } from './approval-attachments.controller';
import { ApprovalOutcomeEntity } from './approval-outcome.entity';
import { ApprovalOutcomesService } from './approval-outcomes.service';
import { ApprovalsController } from './approvals.controller';
import { ApprovalsService } from './approvals.service';
import { AttachmentsService } from './attachments.service';
import { UploadBodyParser } from './upload-body.parser';

/**
 * CIBA approvals: the approval page, its attachments and the outcome an application reads. Global so
 * that the provider reaches the attachments only through the port it declares (AttachmentCheck).
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([ApprovalAttachmentEntity, ApprovalOutcomeEntity]),
    ApplicationsModule,
    ProviderModule,
  ],
  controllers: [ApprovalsController, ApprovalAttachmentsController],
  providers: [
    ApprovalsService,
    AttachmentsService,
    { provide: AttachmentCheck, useExisting: AttachmentsService },
    ApprovalOutcomesService,
    UploadBodyParser,
  ],
  exports: [AttachmentCheck],
})
export class ApprovalsModule {}
