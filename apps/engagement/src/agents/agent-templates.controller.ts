import { ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE, ENGAGEMENT_READ } from '@kyc/contracts';
import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  pageLinks,
  PlatformConfig,
  RequirePermissions,
} from '@kyc/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { AgentTemplateEntity } from './agent-template.entity';
import { AgentTemplatesService } from './agent-templates.service';
import {
  AGENT_TEMPLATE_EXAMPLE,
  AgentTemplateResponse,
  CreateAgentTemplateDto,
  DeleteAgentTemplatesDto,
  ListAgentTemplatesQuery,
  UpdateAgentTemplateDto,
} from './dto/agent-template.dto';

const present = (t: AgentTemplateEntity): AgentTemplateResponse => ({
  template_name: t.name,
  template_type: t.templateType,
  content: t.content,
  creation_date: t.createdAt.toISOString(),
  update_date: t.updatedAt.toISOString(),
});
const NOT_FOUND = { 404: ['agent template saludo not found', 'agent_template_not_found'] as [string, string] };

/** Agent templates (canned texts). */
@ApiTags('agent workspace: templates')
@BackendKeys()
@Controller('v1/engagement/agent/templates')
export class AgentTemplatesController {
  constructor(
    private readonly templates: AgentTemplatesService,
    private readonly config: PlatformConfig,
  ) {}

  @RequirePermissions(ENGAGEMENT_MANAGE)
  @Post()
  @ApiSuccess({ status: 201, type: AgentTemplateResponse, example: AGENT_TEMPLATE_EXAMPLE })
  @ApiEnvelopeErrors(403, 400, { 409: ['agent template saludo already exists', 'agent_template_exists'] })
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateAgentTemplateDto) {
    return present(await this.templates.create(caller, dto));
  }

  @RequirePermissions(ENGAGEMENT_MANAGE)
  @Post('delete')
  @HttpCode(200)
  @ApiSuccess({
    schema: {
      type: 'object',
      properties: {
        deleted: { type: 'array', items: { type: 'string' } },
        not_found: { type: 'array', items: { type: 'string' } },
      },
    },
    example: { deleted: ['saludo'], not_found: ['despedida'] },
  })
  @ApiEnvelopeErrors(403, 400)
  removeMany(@CurrentCaller() caller: Caller, @Body() dto: DeleteAgentTemplatesDto) {
    return this.templates.removeMany(caller, dto.template_names);
  }

  @RequirePermissions(ENGAGEMENT_MANAGE)
  @Put(':template_name')
  @ApiSuccess({ type: AgentTemplateResponse, example: AGENT_TEMPLATE_EXAMPLE })
  @ApiEnvelopeErrors(403, 400, NOT_FOUND)
  async update(
    @CurrentCaller() caller: Caller,
    @Param('template_name') name: string,
    @Body() dto: UpdateAgentTemplateDto,
  ) {
    return present(await this.templates.update(caller, name, dto));
  }

  @RequirePermissions(ENGAGEMENT_READ, ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Get()
  @ApiPage({
    items: 'templates',
    type: AgentTemplateResponse,
    example: [AGENT_TEMPLATE_EXAMPLE],
    self: '/v1/engagement/agent/templates?prefix=sal',
    description: 'A page of templates by name',
  })
  @ApiEnvelopeErrors(403, 400)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListAgentTemplatesQuery, @Req() req: FastifyRequest) {
    const page = await this.templates.list(caller, query);
    return { templates: page.items.map(present), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @RequirePermissions(ENGAGEMENT_MANAGE)
  @Delete(':template_name')
  @ApiSuccess({
    schema: {
      type: 'object',
      required: ['template_name', 'deleted'],
      properties: { template_name: { type: 'string' }, deleted: { type: 'boolean' } },
    },
    example: { template_name: 'saludo', deleted: true },
  })
  @ApiEnvelopeErrors(403, NOT_FOUND)
  async remove(@CurrentCaller() caller: Caller, @Param('template_name') name: string) {
    await this.templates.remove(caller, name);
    return { template_name: name, deleted: true };
  }
}
