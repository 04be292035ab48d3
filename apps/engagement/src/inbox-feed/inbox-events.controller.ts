import { ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE, ENGAGEMENT_READ } from '@kyc/contracts';
import { ApiEnvelopeErrors, BackendKeys, Caller, CurrentCaller, RequirePermissions } from '@kyc/platform';
import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { InboxEventsQuery } from './dto/inbox-events.query';
import { InboxStreamService } from './inbox-stream.service';

/** The agent inbox's push channel (server-sent events). */
@ApiTags('agent workspace: inbox')
@BackendKeys()
@Controller('v1/engagement/inbox')
export class InboxEventsController {
  constructor(private readonly streams: InboxStreamService) {}

  @RequirePermissions(ENGAGEMENT_READ, ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Get('events')
  @ApiProduces('text/event-stream')
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'Resume after this event (sent by browsers on reconnect)',
  })
  @ApiResponse({
    status: 200,
    description:
      'A stream of server-sent events: `hello` (or `reset`), then `message.received`, `message.status`, `chat.opened`, `chat.assigned`, `chat.closed`, `agent.status`, `agent.capacity`, each with a monotonically increasing `id`; agents receive their chats, the queued ones and the agent events naming them, managers every chat and agent event of the tenant',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiEnvelopeErrors(400, 403)
  async events(
    @CurrentCaller() caller: Caller,
    @Query() query: InboxEventsQuery,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.streams.open(caller, req, reply, this.streams.lastEventId(req, query.last_event_id));
  }
}
