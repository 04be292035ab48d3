import { Caller, CurrentCaller } from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { presentCampaign } from './campaign.presenter';
import { CampaignsService } from './campaigns.service';
import { CreateCampaignDto } from './dto/create-campaign.dto';

/** Campaigns: bulk sends of an approved outbound, their progress and cancellation. */
@ApiTags('campaigns')
@Controller('v1/msg/campaigns')
export class CampaignsController {
  constructor(private readonly campaigns: CampaignsService) {}

  @Post()
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateCampaignDto) {
    const campaign = await this.campaigns.create(caller, dto);
    const { progress } = await this.campaigns.get(caller, campaign.id);
    return presentCampaign(campaign, progress);
  }

  @Get(':campaign_id')
  async get(@CurrentCaller() caller: Caller, @Param('campaign_id') id: string) {
    const { campaign, progress } = await this.campaigns.get(caller, id);
    return presentCampaign(campaign, progress);
  }

  @Post(':campaign_id/cancel')
  @HttpCode(200)
  async cancel(@CurrentCaller() caller: Caller, @Param('campaign_id') id: string) {
    const { campaign, progress } = await this.campaigns.cancel(caller, id);
    return presentCampaign(campaign, progress);
  }
}
