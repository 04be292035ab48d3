import {
  ApiEnvelopeErrors,
  ApiSuccess,
  BackendKeys,
  BodyLimit,
  Caller,
  CurrentCaller,
  InputLimits,
} from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { presentCampaign } from './campaign.presenter';
import { CampaignsService } from './campaigns.service';
import { CAMPAIGN_EXAMPLE, CampaignResponse } from './dto/campaign.response';
import { CAMPAIGN_MAX_RECIPIENTS, CreateCampaignDto } from './dto/create-campaign.dto';

/**
 * A campaign of the largest size (CAMPAIGN_MAX_RECIPIENTS recipients, each with its phone, account id and a few
 * variables) must fit the request limits: about 320 bytes and 25 values per recipient.
 */
const CAMPAIGN_BODY_LIMIT_BYTES = CAMPAIGN_MAX_RECIPIENTS * 320;
const CAMPAIGN_MAX_VALUES = CAMPAIGN_MAX_RECIPIENTS * 25;

const CAMPAIGN_NOT_FOUND = { 404: ['campaign CMP3c4d not found', 'campaign_not_found'] as [string, string] };

/** Campaigns: bulk sends of an approved outbound, their progress and cancellation. */
@ApiTags('campaigns')
@BackendKeys()
@Controller('v1/msg/campaigns')
export class CampaignsController {
  constructor(private readonly campaigns: CampaignsService) {}

  @Post()
  @ApiSuccess({
    status: 201,
    type: CampaignResponse,
    example: { ...CAMPAIGN_EXAMPLE, progress: { ...CAMPAIGN_EXAMPLE.progress, sent: 0, pending: 10000, percent: 0 } },
  })
  @ApiEnvelopeErrors(
    400,
    { 404: ['outbound OTB0c1d2 not found', 'outbound_not_found'] },
    { 409: ['only APPROVED outbounds can be sent', 'outbound_not_sendable'] },
    413,
  )
  @BodyLimit(CAMPAIGN_BODY_LIMIT_BYTES)
  @InputLimits({ maxNodes: CAMPAIGN_MAX_VALUES })
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateCampaignDto) {
    const campaign = await this.campaigns.create(caller, dto);
    const { progress } = await this.campaigns.get(caller, campaign.id);
    return presentCampaign(campaign, progress);
  }

  @Get(':campaign_id')
  @ApiSuccess({ type: CampaignResponse, example: CAMPAIGN_EXAMPLE })
  @ApiEnvelopeErrors(CAMPAIGN_NOT_FOUND)
  async get(@CurrentCaller() caller: Caller, @Param('campaign_id') id: string) {
    const { campaign, progress } = await this.campaigns.get(caller, id);
    return presentCampaign(campaign, progress);
  }

  @Post(':campaign_id/cancel')
  @ApiSuccess({
    type: CampaignResponse,
    example: {
      ...CAMPAIGN_EXAMPLE,
      status: 'cancelled',
      progress: { ...CAMPAIGN_EXAMPLE.progress, pending: 0, cancelled: 5788, percent: 100 },
      finish_date: '2026-11-25T10:02:00.000Z',
    },
  })
  @ApiEnvelopeErrors(CAMPAIGN_NOT_FOUND, { 409: ['the campaign is already finished', 'campaign_finished'] })
  @HttpCode(200)
  async cancel(@CurrentCaller() caller: Caller, @Param('campaign_id') id: string) {
    const { campaign, progress } = await this.campaigns.cancel(caller, id);
    return presentCampaign(campaign, progress);
  }
}
