import { ApiEnvelopeErrors, ApiPublic, ApiSuccess, Public } from '@kyc/platform';
import { Controller, Get, Param, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { UPLOAD_EXAMPLE, UploadResponse } from './dto/media.response';
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
  @ApiPublic()
  @ApiSuccess({ type: UploadResponse, example: UPLOAD_EXAMPLE })
  @ApiEnvelopeErrors(
    { 400: ['the body is not Base64', 'invalid_base64'] },
    { 400: ['the image is over the pixel budget (VALIDATIONS_IMAGE_MAX_MEGAPIXELS)', 'image_too_large'] },
    { 403: ['the upload link has expired', 'upload_link_expired'] },
    { 409: ['this file was already uploaded', 'media_already_uploaded'] },
    { 413: ['the file is larger than 10485760 bytes', 'media_too_large'] },
    {
      415: [
        'front takes image/jpeg or image/png (only an image: no data after its end, no markup)',
        'unsupported_media_type',
      ],
    },
  )
  @ApiConsumes('text/plain', 'application/octet-stream')
  @ApiBody({ description: 'The file, Base64-encoded (as text)', schema: { type: 'string', format: 'byte' } })
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
  @ApiPublic()
  @ApiSuccess({ contentType: 'application/octet-stream', description: 'The file (its own content type)' })
  @ApiEnvelopeErrors(
    400,
    { 403: ['invalid link', 'invalid_upload_link'] },
    { 404: ['media not found', 'media_not_found'] },
  )
  async view(
    @Param('media_id') mediaId: string,
    @Query() query: SignedLinkQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { contentType, data } = await this.media.view(mediaId, query.expires, query.signature);
    // nosniff: a browser renders the file as its proven type only, never as HTML; sandbox: no script either way.
    void reply
      .header('content-type', contentType)
      .header('cache-control', 'private, max-age=900')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox");
    return data;
  }
}
