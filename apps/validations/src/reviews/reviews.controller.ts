import { ApiEnvelopeErrors, ApiPage, ApiSuccess, pageLinks, PlatformAdmin, PlatformConfig } from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { baseUrl } from '../shared/base-url';
import {
  FINISHED_VALIDATION_EXAMPLE,
  VALIDATION_EXAMPLE,
  ValidationResponse,
} from '../validations/dto/validation.response';
import { presentValidation } from '../validations/validation.presenter';
import { ReviewDecisionDto, ReviewQueueQuery } from './dto/review.dto';
import { ReviewsService } from './reviews.service';

/** Operators of the manual review team (platform operator tokens). */
@ApiTags('reviews')
@PlatformAdmin()
@Controller('v1/admin/reviews')
export class ReviewsController {
  constructor(
    private readonly reviews: ReviewsService,
    private readonly config: PlatformConfig,
  ) {}

  @Get()
  @ApiPage({
    items: 'reviews',
    type: ValidationResponse,
    example: [{ ...VALIDATION_EXAMPLE, manual_review_status: 'pending', instructions: undefined }],
    self: '/v1/admin/reviews?tenant_id=acme',
  })
  @ApiEnvelopeErrors(400, 403)
  async list(@Query() query: ReviewQueueQuery, @Req() req: FastifyRequest) {
    const page = await this.reviews.list(query.tenant_id, query.start_key);
    return {
      reviews: page.items.map((v) => presentValidation(v)),
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }

  @Get(':validation_id')
  @ApiSuccess({
    type: ValidationResponse,
    example: { ...VALIDATION_EXAMPLE, manual_review_status: 'pending', instructions: undefined },
  })
  @ApiEnvelopeErrors(403, { 404: ['validation VLD019ab9f2 not found', 'validation_not_found'] })
  get(@Param('validation_id') id: string, @Req() req: FastifyRequest) {
    return this.reviews.get(id, baseUrl(this.config, req));
  }

  @Post(':validation_id/approve')
  @ApiSuccess({
    type: ValidationResponse,
    example: { ...FINISHED_VALIDATION_EXAMPLE, manual_review_status: 'approved' },
  })
  @ApiEnvelopeErrors(
    400,
    403,
    { 404: ['validation VLD019ab9f2 not found', 'validation_not_found'] },
    { 409: ['validation VLD019ab9f2 is not waiting for review', 'review_not_pending'] },
    413,
  )
  @HttpCode(200)
  approve(@Param('validation_id') id: string, @Body() dto: ReviewDecisionDto) {
    return this.reviews.decide(id, true, dto.comment);
  }

  @Post(':validation_id/decline')
  @ApiSuccess({
    type: ValidationResponse,
    example: {
      ...FINISHED_VALIDATION_EXAMPLE,
      validation_status: 'failure',
      failure_status: 'declined',
      declined_reason: 'declined_by_manual_review',
      manual_review_status: 'declined',
    },
  })
  @ApiEnvelopeErrors(
    400,
    403,
    { 404: ['validation VLD019ab9f2 not found', 'validation_not_found'] },
    { 409: ['validation VLD019ab9f2 is not waiting for review', 'review_not_pending'] },
    413,
  )
  @HttpCode(200)
  decline(@Param('validation_id') id: string, @Body() dto: ReviewDecisionDto) {
    return this.reviews.decide(id, false, dto.comment);
  }
}
