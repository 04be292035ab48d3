import { Caller, Clock, OutboxService, Page } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';

import { LineEntity } from '../lines/line.entity';
import { MessageEntity } from '../messages/message.entity';
import { newId } from '../shared/phones';
import { ChatActivityEntity, ChatEntity } from './chat.entity';
import { ChatStore } from './chat.store';
import { addActivity } from './chat-activities';
import { ChatAssignment } from './chat-assignment';
import { chatEvents } from './chat-events';
import { ChatErrorCode, ChatException } from './chats.exception';
import { ListActivitiesQuery } from './dto/list-activities.query';
import { SearchChatsQuery } from './dto/search-chats.query';
import { decodeSeqKey, encodeSeqKey, searchChats } from './search/chat-search';

const ACTIVITY_PAGE = 50;

/** A user message as the webhook processor recorded it. */
export interface UserMessage {
  line: LineEntity;
  message: MessageEntity;
  contactName?: string;
}

/** Chats: opened by a user's message on a line, holding the conversation as activities. */
@Injectable()
export class ChatsService {
  constructor(
    private readonly chatStore: ChatStore,
    @InjectRepository(ChatEntity) private readonly chats: Repository<ChatEntity>,
    @InjectRepository(ChatActivityEntity) private readonly activities: Repository<ChatActivityEntity>,
    private readonly assignment: ChatAssignment,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
  ) {}

  /**
   * A user wrote to a line: the message joins the open chat of that conversation, or opens one
   * (queued on the line and offered to an agent by the ruleset at once), in the webhook's transaction.
   */
  async onUserMessage(m: EntityManager, u: UserMessage): Promise<ChatEntity> {
    const now = this.clock.now();
    const id = newId('CHT');
    // One statement opens the chat or locks the open one and moves its latest activity (the
    // message's activity below is then not the latest's writer).
    const chat = await this.chatStore.userMessageChat(m, [
      id,
      u.line.tenantId,
      u.line.id,
      u.line.phone,
      u.message.phone,
      u.contactName || null,
      now,
    ]);
    await addActivity(
      m,
      chat,
      {
        actorType: 'user',
        actor: u.message.phone,
        activityType: 'message',
        text: u.message.text,
        messageId: u.message.id,
      },
      now,
      false,
    );
    if (chat.id === id) {
      await chatEvents.opened(this.outbox, m, chat);
      await this.assignment.assign(m, chat);
    }
    return chat;
  }

  /**
   * Delivery statuses the provider reported (one webhook's moves, in order) for messages of chats:
   * each becomes a status_change activity of its chat, and the chat's message activity takes the
   * message's latest status. One statement for the lot, whether or not the messages belong to a
   * chat (campaign and API sends do not), in the webhook's transaction.
   */
  async onMessageStatuses(m: EntityManager, moves: Pick<MessageEntity, 'id' | 'status' | 'error'>[]): Promise<void> {
    if (!moves.length) return;
    await this.chatStore.statusActivities(m, [
      moves.map(() => newId('ACT')),
      moves.map((x) => x.id),
      moves.map((x) => x.status),
      moves.map((x) => x.error),
      this.clock.now(),
    ]);
  }

  async get(caller: Caller, id: string): Promise<ChatEntity> {
    const chat = await this.chats.findOneBy({ id, tenantId: caller.tenantId });
    if (!chat) throw new ChatException(ChatErrorCode.ChatNotFound, `chat ${id} not found`);
    return chat;
  }

  /** An agent's internal note on a chat (open or closed); it is never sent to the user. */
  addNote(caller: Caller, chatId: string, text: string): Promise<ChatActivityEntity> {
    return this.chats.manager.transaction(async (m) => {
      const chat = await m.findOneBy(ChatEntity, { id: chatId, tenantId: caller.tenantId });
      if (!chat) throw new ChatException(ChatErrorCode.ChatNotFound, `chat ${chatId} not found`);
      return addActivity(
        m,
        chat,
        { actorType: 'agent', actor: caller.username ?? caller.userId, activityType: 'note', text },
        this.clock.now(),
      );
    });
  }

  search(caller: Caller, q: SearchChatsQuery): Promise<Page<ChatEntity>> {
    return searchChats(this.chats, caller.tenantId, q);
  }

  /** A chat's activities in the order they happened, filtered by actor and activity type. */
  async listActivities(caller: Caller, chatId: string, q: ListActivitiesQuery): Promise<Page<ChatActivityEntity>> {
    await this.get(caller, chatId);
    const qb = this.activities
      .createQueryBuilder('a')
      .where('a.tenantId = :tenantId AND a.chatId = :chatId', { tenantId: caller.tenantId, chatId });
    if (q.actor_type) qb.andWhere('a.actorType = :actorType', { actorType: q.actor_type });
    if (q.activity_type) qb.andWhere('a.activityType = :activityType', { activityType: q.activity_type });
    const after = decodeSeqKey(q.start_key);
    if (after !== undefined) qb.andWhere('a.seq > :after', { after });
    const limit = q.limit ?? ACTIVITY_PAGE;
    const rows = await qb
      .orderBy('a.seq', 'ASC')
      .take(limit + 1)
      .getMany();
    const items = rows.slice(0, limit);
    return { items, nextKey: rows.length > limit ? encodeSeqKey(items[items.length - 1].seq) : undefined };
  }
}
