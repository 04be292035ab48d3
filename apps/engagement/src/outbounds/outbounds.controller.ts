import { BodyLimit, Caller, CurrentCaller, InputLimits, pageLinks, PlatformConfig } from '@kyc/platform';
import { Body, Controller, Delete, Get, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { ListOutboundsQuery } from './dto/list-outbounds.query';
import { SaveOutboundDto } from './dto/save-outbound.dto';
import { UploadMediaDto } from './dto/upload-media.dto';
import { presentOutbound } from './outbound.presenter';
import { OutboundsService } from './outbounds.service';

const MEDIA_BODY_LIMIT_BYTES = 52_428_800;

/** Outbound message templates and their header media. */
@ApiTags('outbound messages')
@Controller('v1/msg')
export class OutboundsController {
  constructor(
    private readonly outbounds: OutboundsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post('outbounds')
  async create(@CurrentCaller() caller: Caller, @Body() dto: SaveOutboundDto) {
    return presentOutbound(await this.outbounds.create(caller, dto));
  }

  @Get('outbounds')
  async list(@CurrentCaller() caller: Caller, @Query() query: ListOutboundsQuery, @Req() req: FastifyRequest) {
    const page = await this.outbounds.list(caller, query);
    const outbounds = page.items.map(presentOutbound);
    if (!query.paginated) return outbounds;
    return { outbounds, ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get('outbounds/:outbound_id')
  async get(@CurrentCaller() caller: Caller, @Param('outbound_id') id: string) {
    return presentOutbound(await this.outbounds.get(caller, id));
  }

  @Put('outbounds/:outbound_id')
  async update(@CurrentCaller() caller: Caller, @Param('outbound_id') id: string, @Body() dto: SaveOutboundDto) {
    return presentOutbound(await this.outbounds.update(caller, id, dto));
  }

  @Delete('outbounds/:outbound_id')
  async remove(@CurrentCaller() caller: Caller, @Param('outbound_id') id: string) {
    await this.outbounds.remove(caller, id);
    return { outbound_id: id, deleted: true };
  }

  // Media arrive Base64-encoded in the body: up to the platform's largest body (HTTP_MAX_BODY_BYTES, 50 MiB),
  // so the per-type size rules (IMAGE 5 MB, VIDEO 16 MB, DOCUMENT 100 MB) answer with their own 400.
  @Post('media')
  @BodyLimit(MEDIA_BODY_LIMIT_BYTES)
  @InputLimits({ maxStringLength: MEDIA_BODY_LIMIT_BYTES })
  async upload(@CurrentCaller() caller: Caller, @Body() dto: UploadMediaDto) {
    const media = await this.outbounds.uploadMedia(caller, dto);
    return {
      media_id: media.id,
      media_type: media.mediaType,
      mime_type: media.mimeType,
      size_bytes: media.sizeBytes,
      creation_date: media.createdAt.toISOString(),
    };
  }
}
