import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  CursorPageQuery,
  pageLinks,
  PlatformConfig,
} from '@kyc/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { baseUrl } from '../shared/base-url';
import { CreateValidationDto, PerformValidationDto } from './dto/create-validation.dto';
import { ShowDetailsQuery } from './dto/show-details.query';
import {
  FINISHED_VALIDATION_EXAMPLE,
  VALIDATION_EXAMPLE,
  ValidationDeletedResponse,
  ValidationResponse,
} from './dto/validation.response';
import { CreateValidationUseCase } from './use-cases/create-validation.use-case';
import { PerformValidationUseCase } from './use-cases/perform-validation.use-case';
import { presentValidation } from './validation.presenter';
import { ValidationRetentionService } from './validation-retention.service';
import { ValidationsService } from './validations.service';

@ApiTags('validations')
@BackendKeys()
@Controller('v1')
export class ValidationsController {
  constructor(
    private readonly validations: ValidationsService,
    private readonly creation: CreateValidationUseCase,
    private readonly performing: PerformValidationUseCase,
    private readonly retention: ValidationRetentionService,
    private readonly config: PlatformConfig,
  ) {}

  @Post('validations')
  @ApiSuccess({ status: 201, type: ValidationResponse, example: VALIDATION_EXAMPLE })
  @ApiEnvelopeErrors(
    { 400: ['custom type my-type does not exist', 'custom_type_not_found'] },
    { 403: ['document validations in BR are available on request', 'available_on_request'] },
    { 404: ['account user-123 not found', 'account_not_found'] },
    413,
    {
      429: [
        'too many codes were sent to this e-mail address: try again in 15 minutes (or a rate limit)',
        'too_many_codes',
      ],
    },
  )
  create(@CurrentCaller() caller: Caller, @Body() dto: CreateValidationDto, @Req() req: FastifyRequest) {
    return this.creation.execute(caller, dto, baseUrl(this.config, req), req.ip);
  }

  @Get('validations')
  @ApiPage({ items: 'validations', type: ValidationResponse, example: [VALIDATION_EXAMPLE], self: '/v1/validations' })
  @ApiEnvelopeErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: CursorPageQuery, @Req() req: FastifyRequest) {
    const page = await this.validations.list(caller, query.start_key);
    return { validations: page.items, ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get('validations/:validation_id')
  @ApiSuccess({ type: ValidationResponse, example: FINISHED_VALIDATION_EXAMPLE })
  @ApiEnvelopeErrors(400, { 404: ['validation VLD019ab9f2 not found', 'validation_not_found'] })
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
  @ApiSuccess({
    type: ValidationResponse,
    description: 'The validation; a wrong code lowers attempts_left (the last one fails it)',
    example: FINISHED_VALIDATION_EXAMPLE,
  })
  @ApiEnvelopeErrors(
    { 400: ['validation VLD019ab9f2 is a email-verification', 'wrong_validation_type'] },
    { 404: ['validation VLD019ab9f2 not found', 'validation_not_found'] },
    { 409: ['validation VLD019ab9f2 already ended (success)', 'validation_not_pending'] },
    413,
    { 429: ['too many attempts: try again in 15 minutes (or a rate limit)', 'too_many_attempts'] },
  )
  @HttpCode(200)
  perform(@CurrentCaller() caller: Caller, @Param('validation_id') id: string, @Body() dto: PerformValidationDto) {
    return this.performing.execute(caller, id, dto);
  }

  @Delete('validations/:validation_id')
  @ApiSuccess({
    type: ValidationDeletedResponse,
    example: { validation_id: VALIDATION_EXAMPLE.validation_id, deleted: true },
  })
  @ApiEnvelopeErrors({ 404: ['validation VLD019ab9f2 not found', 'validation_not_found'] })
  @HttpCode(200)
  async remove(@CurrentCaller() caller: Caller, @Param('validation_id') id: string) {
    await this.retention.remove(caller, id);
    return { validation_id: id, deleted: true };
  }

  @Post('validations/:validation_id/restore')
  @ApiSuccess({ type: ValidationResponse, example: FINISHED_VALIDATION_EXAMPLE })
  @ApiEnvelopeErrors(
    { 404: ['validation VLD019ab9f2 not found', 'validation_not_found'] },
    { 409: ['validation VLD019ab9f2 is not deleted', 'validation_not_deleted'] },
  )
  @HttpCode(200)
  async restore(@CurrentCaller() caller: Caller, @Param('validation_id') id: string) {
    return presentValidation(await this.retention.restore(caller, id));
  }

  @Get('accounts/:account_id/validations')
  @ApiPage({
    items: 'validations',
    type: ValidationResponse,
    example: [VALIDATION_EXAMPLE],
    self: '/v1/accounts/user-123/validations',
  })
  @ApiEnvelopeErrors(400, { 404: ['account user-123 not found', 'account_not_found'] })
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
  @ApiSuccess({ type: ValidationResponse, example: FINISHED_VALIDATION_EXAMPLE })
  @ApiEnvelopeErrors(400, { 404: ['validation VLD019ab9f2 not found', 'validation_not_found'] })
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
