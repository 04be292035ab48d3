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
import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { presentActivity, presentChat } from './chat.presenter';
import { ChatOwnerService } from './chat-owner.service';
import { ChatSendService } from './chat-send.service';
import { ChatsService } from './chats.service';
import { AddNoteDto } from './dto/add-note.dto';
import { ACTIVITY_EXAMPLE, CHAT_EXAMPLE, ChatActivityResponse, ChatResponse } from './dto/chat.response';
import { ForceDequeueDto } from './dto/force-dequeue.dto';
import { ListActivitiesQuery } from './dto/list-activities.query';
import { SearchChatsQuery } from './dto/search-chats.query';
import { SendChatMessageDto } from './dto/send-chat-message.dto';
import { UpdateChatDto } from './dto/update-chat.dto';

const NOT_FOUND = { 404: ['chat CHT… not found', 'chat_not_found'] as [string, string] };
const NOT_OWNER = {
  403: ['chat CHT… is owned by another agent: only its owner or a manager may act on it', 'not_chat_owner'] as [
    string,
    string,
  ],
};

/** Chats of the agent workspace: read, search, activities, send, force-dequeue, owner and status. */
@ApiTags('agent workspace: chats')
@BackendKeys()
@Controller('v1/engagement/chat')
export class ChatsController {
  constructor(
    private readonly chats: ChatsService,
    private readonly owners: ChatOwnerService,
    private readonly sender: ChatSendService,
    private readonly config: PlatformConfig,
  ) {}

  @RequirePermissions(ENGAGEMENT_READ, ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Get('search')
  @ApiPage({
    items: 'chats',
    type: ChatResponse,
    example: [CHAT_EXAMPLE],
    self: '/v1/engagement/chat/search?status=open',
  })
  @ApiEnvelopeErrors(403, 400)
  async search(@CurrentCaller() caller: Caller, @Query() query: SearchChatsQuery, @Req() req: FastifyRequest) {
    const page = await this.chats.search(caller, query);
    return { chats: page.items.map(presentChat), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @RequirePermissions(ENGAGEMENT_READ, ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Get(':chat_id')
  @ApiSuccess({ type: ChatResponse, example: CHAT_EXAMPLE })
  @ApiEnvelopeErrors(403, NOT_FOUND)
  async get(@CurrentCaller() caller: Caller, @Param('chat_id') id: string) {
    return presentChat(await this.chats.get(caller, id));
  }

  @RequirePermissions(ENGAGEMENT_READ, ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Get(':chat_id/activities')
  @ApiPage({
    items: 'activities',
    type: ChatActivityResponse,
    example: [ACTIVITY_EXAMPLE],
    self: `/v1/engagement/chat/${CHAT_EXAMPLE.chat_id}/activities`,
    description: 'A page of activities, oldest first',
  })
  @ApiEnvelopeErrors(403, 400, NOT_FOUND)
  async activities(
    @CurrentCaller() caller: Caller,
    @Param('chat_id') id: string,
    @Query() query: ListActivitiesQuery,
    @Req() req: FastifyRequest,
  ) {
    const page = await this.chats.listActivities(caller, id, query);
    return { activities: page.items.map(presentActivity), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @RequirePermissions(ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Post(':chat_id/send')
  @ApiSuccess({ status: 201, type: ChatActivityResponse, example: { ...ACTIVITY_EXAMPLE, message_status: 'accepted' } })
  @ApiEnvelopeErrors(400, NOT_OWNER, NOT_FOUND, {
    409: ["the user's last message is more than 24 hours old: send an approved template", 'session_window_closed'],
  })
  async send(@CurrentCaller() caller: Caller, @Param('chat_id') id: string, @Body() dto: SendChatMessageDto) {
    return presentActivity(await this.sender.send(caller, id, dto));
  }

  @RequirePermissions(ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Post(':chat_id/notes')
  @ApiSuccess({
    status: 201,
    type: ChatActivityResponse,
    example: {
      ...ACTIVITY_EXAMPLE,
      activity_type: 'note',
      text: 'Cliente VIP',
      message_id: null,
      message_status: null,
    },
  })
  @ApiEnvelopeErrors(403, 400, NOT_FOUND)
  async addNote(@CurrentCaller() caller: Caller, @Param('chat_id') id: string, @Body() dto: AddNoteDto) {
    return presentActivity(await this.chats.addNote(caller, id, dto.text));
  }

  @RequirePermissions(ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Post(':chat_id/force-dequeue')
  @HttpCode(200)
  @ApiSuccess({ type: ChatResponse, example: CHAT_EXAMPLE })
  @ApiEnvelopeErrors(400, NOT_OWNER, NOT_FOUND, { 409: ['agent@acme.com has no free capacity', 'agent_at_capacity'] })
  async forceDequeue(@CurrentCaller() caller: Caller, @Param('chat_id') id: string, @Body() dto: ForceDequeueDto) {
    return presentChat(await this.owners.forceDequeue(caller, id, dto));
  }

  @RequirePermissions(ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Put('agent/:chat_id')
  @ApiSuccess({ type: ChatResponse, example: { ...CHAT_EXAMPLE, status: 'closed' } })
  @ApiEnvelopeErrors(400, NOT_OWNER, NOT_FOUND, { 409: ['chat CHT… is closed', 'chat_closed'] })
  async update(@CurrentCaller() caller: Caller, @Param('chat_id') id: string, @Body() dto: UpdateChatDto) {
    return presentChat(await this.owners.update(caller, id, dto));
  }
}
