import {
  ApiEnvelopeErrors,
  ApiSuccess,
  BackendKeys,
  BodyLimit,
  Caller,
  CurrentCaller,
  InputLimits,
  pageLinks,
  PlatformConfig,
} from '@kyc/platform';
import { Body, Controller, Delete, Get, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { ListOutboundsQuery } from './dto/list-outbounds.query';
import { SaveOutboundDto } from './dto/save-outbound.dto';
import { UploadMediaDto } from './dto/upload-media.dto';
import { spooledMedia, SpooledMediaUpload } from './media-upload/media-upload-spool';
import { presentOutbound } from './outbound.presenter';
import { OutboundsService } from './outbounds.service';

const MEDIA_BODY_LIMIT_BYTES = 52_428_800;

import { MEDIA_EXAMPLE, MediaResponse, OUTBOUND_EXAMPLE, OutboundResponse } from './dto/outbound.response';

const OUTBOUND_NOT_FOUND = { 404: ['outbound OTB0c1d2 not found', 'outbound_not_found'] as [string, string] };
const LINE_NOT_FOUND = { 404: ['line +573000000001 not found', 'line_not_found'] as [string, string] };
const PROVIDER_MISSING = {
  409: ['no messaging provider account: PUT /v1/msg/provider-credentials first', 'provider_not_configured'] as [
    string,
    string,
  ],
};
const TOO_MANY_UPLOADS = {
  429: [
    'this account already has 2 media uploads in progress: retry when one of them has finished',
    'too_many_uploads',
  ] as [string, string],
};
const PROVIDER_DOWN = {
  409: ["the messaging provider refused the account's access token", 'provider_credentials_rejected'] as [
    string,
    string,
  ],
  503: ['the messaging provider is unreachable', 'provider_unavailable'] as [string, string],
};

/** Outbound message templates and their header media. */
@ApiTags('outbound messages')
@BackendKeys()
@Controller('v1/msg')
export class OutboundsController {
  constructor(
    private readonly outbounds: OutboundsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post('outbounds')
  @ApiSuccess({
    status: 201,
    type: OutboundResponse,
    example: { ...OUTBOUND_EXAMPLE, status: 'PENDING', quality: 'PENDING' },
  })
  @ApiEnvelopeErrors(400, LINE_NOT_FOUND, PROVIDER_MISSING, 413, PROVIDER_DOWN)
  async create(@CurrentCaller() caller: Caller, @Body() dto: SaveOutboundDto) {
    return presentOutbound(await this.outbounds.create(caller, dto));
  }

  @Get('outbounds')
  @ApiSuccess({
    schema: {
      oneOf: [
        { type: 'array', items: { $ref: '#/components/schemas/OutboundResponse' } },
        {
          type: 'object',
          properties: {
            outbounds: { type: 'array', items: { $ref: '#/components/schemas/OutboundResponse' } },
            self: { type: 'string' },
            next: { type: 'string' },
          },
        },
      ],
    },
    example: [OUTBOUND_EXAMPLE],
    description:
      'A plain array (up to 100; 404 when empty), or with `paginated=true` `{outbounds, self, next?}` (20 a page)',
  })
  @ApiEnvelopeErrors(400, { 404: ['no outbounds match', 'no_outbounds'] })
  async list(@CurrentCaller() caller: Caller, @Query() query: ListOutboundsQuery, @Req() req: FastifyRequest) {
    const page = await this.outbounds.list(caller, query);
    const outbounds = page.items.map(presentOutbound);
    if (!query.paginated) return outbounds;
    return { outbounds, ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get('outbounds/:outbound_id')
  @ApiSuccess({ type: OutboundResponse, example: OUTBOUND_EXAMPLE })
  @ApiEnvelopeErrors(OUTBOUND_NOT_FOUND)
  async get(@CurrentCaller() caller: Caller, @Param('outbound_id') id: string) {
    return presentOutbound(await this.outbounds.get(caller, id));
  }

  @Put('outbounds/:outbound_id')
  @ApiSuccess({ type: OutboundResponse, example: { ...OUTBOUND_EXAMPLE, status: 'PENDING', quality: 'PENDING' } })
  @ApiEnvelopeErrors(
    400,
    OUTBOUND_NOT_FOUND,
    { 409: ['a DISABLED outbound cannot be edited', 'outbound_not_editable'] },
    413,
    PROVIDER_DOWN,
  )
  async update(@CurrentCaller() caller: Caller, @Param('outbound_id') id: string, @Body() dto: SaveOutboundDto) {
    return presentOutbound(await this.outbounds.update(caller, id, dto));
  }

  @Delete('outbounds/:outbound_id')
  @ApiSuccess({
    schema: { type: 'object', properties: { outbound_id: { type: 'string' }, deleted: { type: 'boolean' } } },
    example: { outbound_id: OUTBOUND_EXAMPLE.outbound_id, deleted: true },
  })
  @ApiEnvelopeErrors(OUTBOUND_NOT_FOUND, PROVIDER_DOWN)
  async remove(@CurrentCaller() caller: Caller, @Param('outbound_id') id: string) {
    await this.outbounds.remove(caller, id);
    return { outbound_id: id, deleted: true };
  }

  // Media arrive Base64-encoded in the body: up to the platform's largest body (HTTP_MAX_BODY_BYTES, 50 MiB),
  // so the per-type size rules (IMAGE 5 MB, VIDEO 16 MB, DOCUMENT 100 MB) answer with their own 400.
  // The file is spooled as it arrives (MediaUploadSpool), never held whole; a few per tenant at once.
  @Post('media')
  @ApiSuccess({ status: 201, type: MediaResponse, example: MEDIA_EXAMPLE })
  @ApiEnvelopeErrors(400, LINE_NOT_FOUND, PROVIDER_MISSING, 413, TOO_MANY_UPLOADS, PROVIDER_DOWN)
  @BodyLimit(MEDIA_BODY_LIMIT_BYTES)
  @InputLimits({ maxStringLength: MEDIA_BODY_LIMIT_BYTES })
  @SpooledMediaUpload()
  async upload(@CurrentCaller() caller: Caller, @Body() dto: UploadMediaDto, @Req() req: FastifyRequest) {
    const media = await this.outbounds.uploadMedia(caller, dto, spooledMedia(req));
    return {
      media_id: media.id,
      media_type: media.mediaType,
      mime_type: media.mimeType,
      size_bytes: media.sizeBytes,
      creation_date: media.createdAt.toISOString(),
    };
  }
}
