import { pageLinks, PlatformAdmin, PlatformConfig } from '@kyc/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { applicationPath, presentApplication } from './application.presenter';
import { ApplicationsService, ApplicationWithSecret } from './applications.service';
import { CreateApplicationDto } from './dto/create-application.dto';
import { ListApplicationsQuery } from './dto/list-applications.query';
import { UpdateApplicationDto } from './dto/update-application.dto';

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
  async create(@Body() dto: CreateApplicationDto) {
    return withSecret(await this.applications.create(dto));
  }

  @Get()
  async list(@Query() query: ListApplicationsQuery, @Req() req: FastifyRequest) {
    const page = await this.applications.list(query);
    return {
      applications: page.items.map(presentApplication),
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }

  @Get(':client_id')
  async get(@Param('client_id') clientId: string) {
    const application = await this.applications.get(clientId);
    return { application: presentApplication(application), self: applicationPath(clientId) };
  }

  @Patch(':client_id')
  async update(@Param('client_id') clientId: string, @Body() dto: UpdateApplicationDto) {
    const application = await this.applications.update(clientId, dto);
    return { application: presentApplication(application), self: applicationPath(clientId) };
  }

  @Post(':client_id/secret')
  @HttpCode(200)
  async rotateSecret(@Param('client_id') clientId: string) {
    return withSecret(await this.applications.rotateSecret(clientId));
  }

  @Delete(':client_id')
  async delete(@Param('client_id') clientId: string) {
    const application = await this.applications.delete(clientId);
    return { message: `application ${clientId} deleted`, application: presentApplication(application) };
  }
}
