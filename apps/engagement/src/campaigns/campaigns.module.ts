import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { MessagesModule } from '../messages/messages.module';
import { CampaignEntity, CampaignRecipientEntity } from './campaign.entity';
import { CampaignStore } from './campaign.store';
import { CampaignsController } from './campaigns.controller';
import { CampaignsService } from './campaigns.service';

@Module({
  imports: [TypeOrmModule.forFeature([CampaignEntity, CampaignRecipientEntity]), MessagesModule],
  controllers: [CampaignsController],
  providers: [CampaignStore, CampaignsService],
  exports: [CampaignsService],
})
export class CampaignsModule {}
