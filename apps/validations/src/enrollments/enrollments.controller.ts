import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller, PlatformConfig } from '@kyc/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { baseUrl } from '../shared/base-url';
import { CreateEnrollmentDto, EnrollmentAccountQuery } from './dto/create-enrollment.dto';
import {
  AccountEnrollmentsResponse,
  ENROLLMENT_EXAMPLE,
  EnrollmentDeletedResponse,
  EnrollmentResponse,
} from './dto/enrollment.response';
import { presentEnrollment } from './enrollment.presenter';
import { EnrollmentsService } from './enrollments.service';

@ApiTags('enrollments')
@BackendKeys()
@Controller('v1')
export class EnrollmentsController {
  constructor(
    private readonly enrollments: EnrollmentsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post('enrollments')
  @ApiSuccess({ status: 201, type: EnrollmentResponse, example: ENROLLMENT_EXAMPLE })
  @ApiEnvelopeErrors(
    400,
    { 403: ['confirmation=none needs an authorization of this account', 'confirmation_none_not_authorized'] },
    { 409: ['phone_type home is already enrolled for account user-123', 'phone_type_already_enrolled'] },
    413,
  )
  async create(
    @CurrentCaller() caller: Caller,
    @Body() dto: CreateEnrollmentDto,
    @Query() query: EnrollmentAccountQuery,
    @Req() req: FastifyRequest,
  ) {
    const { enrollment, link } = await this.enrollments.create(
      caller,
      dto,
      query.account_id,
      baseUrl(this.config, req),
    );
    return presentEnrollment(enrollment, link);
  }

  @Get('enrollments/:enrollment_id')
  @ApiSuccess({ type: EnrollmentResponse, example: { ...ENROLLMENT_EXAMPLE, file_upload_link: undefined } })
  @ApiEnvelopeErrors({ 404: ['enrollment ENR019ab9f2 not found', 'enrollment_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('enrollment_id') id: string) {
    return presentEnrollment(await this.enrollments.get(caller, id));
  }

  @Delete('enrollments/:enrollment_id')
  @ApiSuccess({
    type: EnrollmentDeletedResponse,
    example: { enrollment_id: ENROLLMENT_EXAMPLE.enrollment_id, deleted: true },
  })
  @ApiEnvelopeErrors({ 404: ['enrollment ENR019ab9f2 not found', 'enrollment_not_found'] })
  @HttpCode(200)
  async remove(@CurrentCaller() caller: Caller, @Param('enrollment_id') id: string) {
    await this.enrollments.remove(caller, id);
    return { enrollment_id: id, deleted: true };
  }

  @Get('accounts/:account_id/enrollments')
  @ApiSuccess({
    type: AccountEnrollmentsResponse,
    example: { enrollments: [ENROLLMENT_EXAMPLE], self: '/v1/accounts/user-123/enrollments' },
  })
  @ApiEnvelopeErrors({ 404: ['account user-123 not found', 'account_not_found'] })
  async ofAccount(@CurrentCaller() caller: Caller, @Param('account_id') accountId: string) {
    const enrollments = await this.enrollments.listOfAccount(caller, accountId);
    return { enrollments: enrollments.map((e) => presentEnrollment(e)), self: `/v1/accounts/${accountId}/enrollments` };
  }
}
