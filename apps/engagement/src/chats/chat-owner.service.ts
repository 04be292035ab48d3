import { Caller, Clock, OutboxService } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

import { ChatEntity } from './chat.entity';
import { requireTakeOrOwn } from './chat-access';
import { addActivity } from './chat-activities';
import { ChatAssignment } from './chat-assignment';
import { chatEvents } from './chat-events';
import { ChatErrorCode, ChatException } from './chats.exception';
import { ForceDequeueDto } from './dto/force-dequeue.dto';
import { UpdateChatDto } from './dto/update-chat.dto';

/**
 * Who owns a chat and whether it is open: force-dequeue to a specific agent, owner and status
 * updates, closing (which frees the owner's capacity and hands queued chats on). An agent acts on
 * the chats it owns or takes an unassigned one for itself; a manager on any (chat-access.ts).
 * The chat is locked first, then the agents involved (ChatAssignment.handOver).
 */
@Injectable()
export class ChatOwnerService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly assignment: ChatAssignment,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
  ) {}

  async forceDequeue(caller: Caller, chatId: string, dto: ForceDequeueDto): Promise<ChatEntity> {
    const chat = await this.dataSource.transaction(async (m) => {
      const chat = await this.lockChat(m, caller.tenantId, chatId);
      requireTakeOrOwn(caller, chat, dto.target);
      if (chat.status !== 'open') throw new ChatException(ChatErrorCode.ChatClosed, `chat ${chatId} is closed`);
      await this.assignment.handOver(m, chat, dto.target.toLowerCase(), 'force_dequeue');
      return chat;
    });
    return chat;
  }

  async update(caller: Caller, chatId: string, dto: UpdateChatDto): Promise<ChatEntity> {
    let freed = false;
    const chat = await this.dataSource.transaction(async (m) => {
      const chat = await this.lockChat(m, caller.tenantId, chatId);
      requireTakeOrOwn(caller, chat, dto.owner);
      const now = this.clock.now();
      const actor = caller.username ?? caller.userId;
      if (dto.tags) {
        chat.tags = [...new Set(dto.tags)];
        await m.update(ChatEntity, { id: chat.id }, { tags: chat.tags, updatedAt: now });
      }
      if (dto.status === 'open' && chat.status === 'closed') {
        const other = await m.findOneBy(ChatEntity, {
          tenantId: chat.tenantId,
          lineId: chat.lineId,
          contactPhone: chat.contactPhone,
          status: 'open',
        });
        if (other)
          throw new ChatException(
            ChatErrorCode.OpenChatExists,
            `the conversation already has an open chat (${other.id}); it cannot be reopened`,
          );
        chat.status = 'open';
        chat.closedAt = null;
        chat.owner = null;
        chat.enqueuedAt = now;
        await m.update(ChatEntity, { id: chat.id }, { status: 'open', closedAt: null, owner: null, enqueuedAt: now });
        await addActivity(
          m,
          chat,
          { actorType: 'agent', actor, activityType: 'status_change', chatStatus: 'open' },
          now,
        );
        await chatEvents.opened(this.outbox, m, chat);
      }
      if (dto.owner !== undefined && dto.owner.toLowerCase() !== chat.owner) {
        if (chat.status !== 'open') throw new ChatException(ChatErrorCode.ChatClosed, `chat ${chatId} is closed`);
        await this.assignment.handOver(m, chat, dto.owner.toLowerCase(), 'owner_update');
      }
      if (dto.status === 'closed' && chat.status === 'open') {
        await this.assignment.release(m, chat.tenantId, chat.owner);
        freed = true;
        chat.status = 'closed';
        chat.closedAt = now;
        chat.enqueuedAt = null;
        await m.update(ChatEntity, { id: chat.id }, { status: 'closed', closedAt: now, enqueuedAt: null });
        await addActivity(
          m,
          chat,
          { actorType: 'agent', actor, activityType: 'status_change', chatStatus: 'closed' },
          now,
        );
        await chatEvents.closed(this.outbox, m, chat);
      } else if (chat.status === 'open' && !chat.owner) {
        await this.assignment.assign(m, chat);
      }
      return chat;
    });
    // The freed place goes to the oldest queued chat.
    if (freed) await this.assignment.drain(caller.tenantId);
    return chat;
  }

  private async lockChat(m: EntityManager, tenantId: string, id: string): Promise<ChatEntity> {
    const chat = await m
      .createQueryBuilder(ChatEntity, 'c')
      .where('c.tenantId = :tenantId AND c.id = :id', { tenantId, id })
      .setLock('pessimistic_write')
      .getOne();
    if (!chat) throw new ChatException(ChatErrorCode.ChatNotFound, `chat ${id} not found`);
    return chat;
  }
}
