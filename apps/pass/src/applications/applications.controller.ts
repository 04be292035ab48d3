import { ApiEnvelopeErrors, ApiSuccess, pageLinks, PlatformAdmin, PlatformConfig } from '@kyc/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import {
  APPLICATION_EXAMPLE,
  APPLICATION_SCHEMA,
  APPLICATION_WITH_SECRET_EXAMPLE,
  APPLICATION_WITH_SECRET_SCHEMA,
} from '../openapi/pass-schemas';
import { applicationPath, presentApplication } from './application.presenter';
import { ApplicationsService, ApplicationWithSecret } from './applications.service';
import { CreateApplicationDto } from './dto/create-application.dto';
import { ListApplicationsQuery } from './dto/list-applications.query';
import { UpdateApplicationDto } from './dto/update-application.dto';

const ONE = { application: APPLICATION_EXAMPLE, self: '/v1/admin/applications/pc_5b0c2f6d8e1a4b7c9d0e1f2a' };

const withSecret = ({ application, clientSecret }: ApplicationWithSecret) => ({
  application: { ...presentApplication(application), client_secret: clientSecret },
  self: applicationPath(application.clientId),
});

/** Applications (OAuth clients) of pass, managed by the platform operator; the client secret is shown once. */
@ApiTags('applications')
@PlatformAdmin()
@Controller('v1/admin/applications')
export class ApplicationsController {
  constructor(
    private readonly applications: ApplicationsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  @ApiSuccess({
    status: 201,
    schema: APPLICATION_WITH_SECRET_SCHEMA,
    example: APPLICATION_WITH_SECRET_EXAMPLE,
    description: 'Registered; the client secret is shown this once',
  })
  @ApiEnvelopeErrors(400)
  async create(@Body() dto: CreateApplicationDto) {
    return withSecret(await this.applications.create(dto));
  }

  @Get()
  @ApiSuccess({
    schema: {
      type: 'object',
      required: ['applications', 'self'],
      properties: {
        applications: { type: 'array', items: APPLICATION_SCHEMA },
        self: { type: 'string' },
        next: { type: 'string' },
      },
    },
    example: { applications: [APPLICATION_EXAMPLE], self: '/v1/admin/applications?tenant_id=acme&limit=20' },
    description: 'A page of applications (newest first); `next` carries start_key',
  })
  @ApiEnvelopeErrors(400)
  async list(@Query() query: ListApplicationsQuery, @Req() req: FastifyRequest) {
    const page = await this.applications.list(query);
    return {
      applications: page.items.map(presentApplication),
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }

  @Get(':client_id')
  @ApiSuccess({ schema: APPLICATION_SCHEMA, wrap: 'application', with: { self: { type: 'string' } }, example: ONE })
  @ApiEnvelopeErrors({ 404: ['application pc_0 not found', 'application_not_found'] })
  async get(@Param('client_id') clientId: string) {
    const application = await this.applications.get(clientId);
    return { application: presentApplication(application), self: applicationPath(clientId) };
  }

  @Patch(':client_id')
  @ApiSuccess({ schema: APPLICATION_SCHEMA, wrap: 'application', with: { self: { type: 'string' } }, example: ONE })
  @ApiEnvelopeErrors(400, { 404: ['application pc_0 not found', 'application_not_found'] })
  async update(@Param('client_id') clientId: string, @Body() dto: UpdateApplicationDto) {
    const application = await this.applications.update(clientId, dto);
    return { application: presentApplication(application), self: applicationPath(clientId) };
  }

  @Post(':client_id/secret')
  @HttpCode(200)
  @ApiSuccess({
    schema: APPLICATION_WITH_SECRET_SCHEMA,
    example: APPLICATION_WITH_SECRET_EXAMPLE,
    description: 'A new client secret, shown this once; the previous one stops working',
  })
  @ApiEnvelopeErrors(
    { 404: ['application pc_0 not found', 'application_not_found'] },
    { 409: ['a public client has no secret to rotate', 'public_client'] },
  )
  async rotateSecret(@Param('client_id') clientId: string) {
    return withSecret(await this.applications.rotateSecret(clientId));
  }

  @Delete(':client_id')
  @ApiSuccess({
    schema: {
      type: 'object',
      required: ['message', 'application'],
      properties: { message: { type: 'string' }, application: APPLICATION_SCHEMA },
    },
    example: { message: 'application pc_5b0c2f6d8e1a4b7c9d0e1f2a deleted', application: APPLICATION_EXAMPLE },
  })
  @ApiEnvelopeErrors({ 404: ['application pc_0 not found', 'application_not_found'] })
  async delete(@Param('client_id') clientId: string) {
    const application = await this.applications.delete(clientId);
    return { message: `application ${clientId} deleted`, application: presentApplication(application) };
  }
}
