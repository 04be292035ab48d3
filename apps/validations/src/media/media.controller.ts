import { Public } from '@kyc/platform';
import { Controller, Get, Param, Put, Query, Req, Res } from '@nestjs/common';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { SignedLinkQuery } from './dto/signed-link.query';
import { MediaService } from './media.service';

/** The upload links (file_upload_link, front_url, reverse_url) and show_details media links point here. */
@ApiTags('media')
@Controller('v1')
export class MediaController {
  constructor(private readonly media: MediaService) {}

  /** PUT {file_upload_url}: the file encoded in Base64 as the body (text/plain or application/octet-stream). */
  @Public()
  @Put('uploads/:media_id')
  @ApiConsumes('text/plain', 'application/octet-stream')
  async upload(@Param('media_id') mediaId: string, @Query() query: SignedLinkQuery, @Req() req: FastifyRequest) {
    const media = await this.media.upload(mediaId, query.expires, query.signature, req.body);
    return {
      media_id: media.id,
      slot: media.slot,
      content_type: media.contentType,
      size: media.size,
      status: 'uploaded',
    };
  }

  /** A show_details link (valid 15 minutes): the file itself. */
  @Public()
  @Get('media/:media_id')
  async view(
    @Param('media_id') mediaId: string,
    @Query() query: SignedLinkQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { contentType, data } = await this.media.view(mediaId, query.expires, query.signature);
    void reply.header('content-type', contentType).header('cache-control', 'private, max-age=900');
    return data;
  }
}
