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
import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { presentAgent } from './agent.presenter';
import { AgentsService } from './agents.service';
import { AGENT_EXAMPLE, AgentResponse } from './dto/agent.response';
import { ListAgentsQuery } from './dto/list-agents.query';
import { SetAgentStatusDto } from './dto/set-agent-status.dto';
import { UpdateCapacitiesDto } from './dto/update-capacities.dto';

const UNKNOWN_USER = { 404: ['ana@acme.com is not a user of this account', 'unknown_user'] as [string, string] };

/** Agents: status online/offline, capacities, group counters. */
const COUNTERS = {
  type: 'object',
  properties: Object.fromEntries(
    ['agents_online', 'agents_offline', 'chats_enqueued', 'chats_assigned'].map((k) => [k, { type: 'integer' }]),
  ),
};

@ApiTags('agent workspace: agents')
@BackendKeys()
@Controller('v1/engagement/agent')
export class AgentsController {
  constructor(
    private readonly agents: AgentsService,
    private readonly config: PlatformConfig,
  ) {}

  @RequirePermissions(ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Post('status')
  @HttpCode(200)
  @ApiSuccess({ type: AgentResponse, example: AGENT_EXAMPLE })
  @ApiEnvelopeErrors(400, UNKNOWN_USER, {
    403: ["an agent sets only its own status: another agent's needs engagement.agents.manage", 'not_own_agent'],
    409: ['ana@acme.com is disabled', 'user_disabled'],
  })
  async setStatus(@CurrentCaller() caller: Caller, @Body() dto: SetAgentStatusDto) {
    return presentAgent(await this.agents.setStatus(caller, dto));
  }

  @RequirePermissions(ENGAGEMENT_READ, ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Get('status')
  @ApiPage({ items: 'agents', type: AgentResponse, example: [AGENT_EXAMPLE], self: '/v1/engagement/agent/status' })
  @ApiEnvelopeErrors(403, 400)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListAgentsQuery, @Req() req: FastifyRequest) {
    const page = await this.agents.list(caller, query);
    return { agents: page.items.map(presentAgent), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @RequirePermissions(ENGAGEMENT_MANAGE)
  @Post('capacities')
  @HttpCode(200)
  @ApiSuccess({
    schema: {
      type: 'object',
      properties: {
        update_type: { type: 'string' },
        capacity_enabled: { type: 'boolean' },
        default_capacity: { type: 'integer' },
        agents: { type: 'array', items: { $ref: '#/components/schemas/AgentResponse' } },
      },
    },
    example: {
      update_type: 'user',
      capacity_enabled: true,
      default_capacity: 5,
      agents: [{ ...AGENT_EXAMPLE, capacity: 8, own_capacity: true, free_capacity: 6 }],
    },
  })
  @ApiEnvelopeErrors(403, 400, UNKNOWN_USER)
  async capacities(@CurrentCaller() caller: Caller, @Body() dto: UpdateCapacitiesDto) {
    const { settings, agents } = await this.agents.updateCapacities(caller, dto);
    return {
      update_type: dto.update_type,
      capacity_enabled: settings.capacityEnabled,
      default_capacity: settings.defaultCapacity,
      agents: agents.map((agent) => presentAgent({ agent, settings })),
    };
  }

  @RequirePermissions(ENGAGEMENT_READ, ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Get('groups/counters')
  @ApiSuccess({
    schema: {
      type: 'object',
      properties: {
        groups: {
          type: 'array',
          items: { ...COUNTERS, properties: { group: { type: 'string' }, ...COUNTERS.properties } },
        },
        total: COUNTERS,
      },
    },
    example: {
      groups: [{ group: '+573000000001', agents_online: 3, agents_offline: 1, chats_enqueued: 4, chats_assigned: 9 }],
      total: { agents_online: 3, agents_offline: 1, chats_enqueued: 4, chats_assigned: 9 },
    },
  })
  @ApiEnvelopeErrors(403)
  groupCounters(@CurrentCaller() caller: Caller) {
    return this.agents.groupCounters(caller);
  }
}
