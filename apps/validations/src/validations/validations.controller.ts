import { Caller, CurrentCaller, CursorPageQuery, pageLinks, PlatformConfig } from '@kyc/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { baseUrl } from '../shared/base-url';
import { CreateValidationDto, PerformValidationDto } from './dto/create-validation.dto';
import { ShowDetailsQuery } from './dto/show-details.query';
import { presentValidation } from './validation.presenter';
import { ValidationsService } from './validations.service';

@ApiTags('validations')
@Controller('v1')
export class ValidationsController {
  constructor(
    private readonly validations: ValidationsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post('validations')
  create(@CurrentCaller() caller: Caller, @Body() dto: CreateValidationDto, @Req() req: FastifyRequest) {
    return this.validations.create(caller, dto, baseUrl(this.config, req), req.ip);
  }

  @Get('validations')
  async list(@CurrentCaller() caller: Caller, @Query() query: CursorPageQuery, @Req() req: FastifyRequest) {
    const page = await this.validations.list(caller, query.start_key);
    return { validations: page.items, ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get('validations/:validation_id')
  get(
    @CurrentCaller() caller: Caller,
    @Param('validation_id') id: string,
    @Query() query: ShowDetailsQuery,
    @Req() req: FastifyRequest,
  ) {
    return this.validations.getPresented(caller, id, query.show_details === true, baseUrl(this.config, req));
  }

  /** perform-validation (email-verification, phone-verification): the code the user received. */
  @Post('validations/:validation_id')
  @HttpCode(200)
  perform(@CurrentCaller() caller: Caller, @Param('validation_id') id: string, @Body() dto: PerformValidationDto) {
    return this.validations.perform(caller, id, dto);
  }

  @Delete('validations/:validation_id')
  @HttpCode(200)
  async remove(@CurrentCaller() caller: Caller, @Param('validation_id') id: string) {
    await this.validations.remove(caller, id);
    return { validation_id: id, deleted: true };
  }

  @Post('validations/:validation_id/restore')
  @HttpCode(200)
  async restore(@CurrentCaller() caller: Caller, @Param('validation_id') id: string) {
    return presentValidation(await this.validations.restore(caller, id));
  }

  @Get('accounts/:account_id/validations')
  async ofAccount(
    @CurrentCaller() caller: Caller,
    @Param('account_id') accountId: string,
    @Query() query: CursorPageQuery,
    @Req() req: FastifyRequest,
  ) {
    const page = await this.validations.list(caller, query.start_key, accountId);
    return { validations: page.items, ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  /** To be deprecated: use GET /v1/validations/{validation_id}. */
  @Get('accounts/:account_id/validations/:validation_id')
  getOfAccount(
    @CurrentCaller() caller: Caller,
    @Param('account_id') accountId: string,
    @Param('validation_id') id: string,
    @Query() query: ShowDetailsQuery,
    @Req() req: FastifyRequest,
  ) {
    return this.validations.getPresented(caller, id, query.show_details === true, baseUrl(this.config, req), accountId);
  }
}
