import { pageLinks, PlatformAdmin, PlatformConfig } from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { baseUrl } from '../shared/base-url';
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
  async list(@Query() query: ReviewQueueQuery, @Req() req: FastifyRequest) {
    const page = await this.reviews.list(query.tenant_id, query.start_key);
    return {
      reviews: page.items.map((v) => presentValidation(v)),
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }

  @Get(':validation_id')
  get(@Param('validation_id') id: string, @Req() req: FastifyRequest) {
    return this.reviews.get(id, baseUrl(this.config, req));
  }

  @Post(':validation_id/approve')
  @HttpCode(200)
  approve(@Param('validation_id') id: string, @Body() dto: ReviewDecisionDto) {
    return this.reviews.decide(id, true, dto.comment);
  }

  @Post(':validation_id/decline')
  @HttpCode(200)
  decline(@Param('validation_id') id: string, @Body() dto: ReviewDecisionDto) {
    return this.reviews.decide(id, false, dto.comment);
  }
}
