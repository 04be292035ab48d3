import { ChatAssignedEvent, ChatClosedEvent, ChatEventBase, ChatOpenedEvent, TOPICS } from '@kyc/contracts';
import { OutboxService } from '@kyc/platform';
import { EntityManager } from 'typeorm';

import { ChatActivityEntity, ChatEntity } from './chat.entity';

const base = (chat: ChatEntity): ChatEventBase => ({
  chat_id: chat.id,
  waba_phone_number: chat.linePhone,
  user_phone_number: chat.contactPhone,
  ...(chat.contactName ? { contact_name: chat.contactName } : {}),
  status: chat.status,
  tags: chat.tags,
});

/** The chat lifecycle events (`engagement.chat.opened`, `.assigned`, `.closed`), written in the change's transaction. */
export const chatEvents = {
  opened(outbox: OutboxService, m: EntityManager, chat: ChatEntity) {
    return outbox.add(m, {
      topic: TOPICS.engagementChatOpened,
      type: TOPICS.engagementChatOpened,
      tenantId: chat.tenantId,
      aggregateId: chat.id,
      payload: {
        ...base(chat),
        opened_at: chat.createdAt.toISOString(),
      } satisfies ChatOpenedEvent,
    });
  },

  assigned(
    outbox: OutboxService,
    m: EntityManager,
    chat: ChatEntity,
    previousOwner: string | null,
    by: ChatAssignedEvent['assigned_by'],
  ) {
    return outbox.add(m, {
      topic: TOPICS.engagementChatAssigned,
      type: TOPICS.engagementChatAssigned,
      tenantId: chat.tenantId,
      aggregateId: chat.id,
      payload: {
        ...base(chat),
        owner: chat.owner!,
        ...(previousOwner ? { previous_owner: previousOwner } : {}),
        assigned_by: by,
        assigned_at: (chat.assignedAt ?? chat.updatedAt).toISOString(),
      } satisfies ChatAssignedEvent,
    });
  },

  async closed(outbox: OutboxService, m: EntityManager, chat: ChatEntity) {
    const messages = await m.countBy(ChatActivityEntity, { chatId: chat.id, activityType: 'message' });
    return outbox.add(m, {
      topic: TOPICS.engagementChatClosed,
      type: TOPICS.engagementChatClosed,
      tenantId: chat.tenantId,
      aggregateId: chat.id,
      payload: {
        ...base(chat),
        ...(chat.owner ? { owner: chat.owner } : {}),
        opened_at: chat.createdAt.toISOString(),
        closed_at: (chat.closedAt ?? chat.updatedAt).toISOString(),
        messages,
      } satisfies ChatClosedEvent,
    });
  },
};
