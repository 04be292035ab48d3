import { ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE, ENGAGEMENT_READ } from '@kyc/contracts';
import {
  ApiEnvelopeErrors,
  ApiPage,
  BackendKeys,
  Caller,
  CurrentCaller,
  pageLinks,
  PlatformConfig,
  RequirePermissions,
} from '@kyc/platform';
import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { ChannelsService } from './channels.service';
import { CHANNEL_EXAMPLE, ChannelResponse } from './dto/channel.response';
import { ListChannelsQuery } from './dto/list-channels.query';

/** Channels of the workspace (the tenant's lines). */
@ApiTags('agent workspace: channels')
@BackendKeys()
@Controller('v1/engagement/channels')
export class ChannelsController {
  constructor(
    private readonly channels: ChannelsService,
    private readonly config: PlatformConfig,
  ) {}

  @RequirePermissions(ENGAGEMENT_READ, ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Get()
  @ApiPage({ items: 'channels', type: ChannelResponse, example: [CHANNEL_EXAMPLE], self: '/v1/engagement/channels' })
  @ApiEnvelopeErrors(403, 400)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListChannelsQuery, @Req() req: FastifyRequest) {
    const page = await this.channels.list(caller, query);
    return {
      channels: page.items.map(({ line, openChats }): ChannelResponse => ({
        channel_id: line.id,
        channel_type: 'whatsapp',
        waba_line: line.phone,
        waba_id: line.wabaId,
        name: line.name,
        quality_rating: line.quality,
        open_chats: openChats,
        creation_date: line.createdAt.toISOString(),
      })),
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }
}
