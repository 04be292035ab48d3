import { Caller, CurrentCaller, PlatformConfig } from '@kyc/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { baseUrl } from '../shared/base-url';
import { CreateEnrollmentDto, EnrollmentAccountQuery } from './dto/create-enrollment.dto';
import { presentEnrollment } from './enrollment.presenter';
import { EnrollmentsService } from './enrollments.service';

@ApiTags('enrollments')
@Controller('v1')
export class EnrollmentsController {
  constructor(
    private readonly enrollments: EnrollmentsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post('enrollments')
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
  async get(@CurrentCaller() caller: Caller, @Param('enrollment_id') id: string) {
    return presentEnrollment(await this.enrollments.get(caller, id));
  }

  @Delete('enrollments/:enrollment_id')
  @HttpCode(200)
  async remove(@CurrentCaller() caller: Caller, @Param('enrollment_id') id: string) {
    await this.enrollments.remove(caller, id);
    return { enrollment_id: id, deleted: true };
  }

  @Get('accounts/:account_id/enrollments')
  async ofAccount(@CurrentCaller() caller: Caller, @Param('account_id') accountId: string) {
    const enrollments = await this.enrollments.listOfAccount(caller, accountId);
    return { enrollments: enrollments.map((e) => presentEnrollment(e)), self: `/v1/accounts/${accountId}/enrollments` };
  }
}
