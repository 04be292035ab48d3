import { ChatActivityEntity, ChatEntity } from './chat.entity';
import { ChatActivityResponse, ChatResponse } from './dto/chat.response';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const presentChat = (c: ChatEntity): ChatResponse => ({
  chat_id: c.id,
  line: c.linePhone,
  channel: 'whatsapp',
  queue: c.queue,
  contact: { phone: c.contactPhone, name: c.contactName },
  status: c.status,
  owner: c.owner,
  enqueued: c.status === 'open' && !c.owner,
  tags: c.tags,
  last_activity: {
    date: c.lastActivityAt.toISOString(),
    actor_type: c.lastActorType,
    activity_type: c.lastActivityType,
  },
  enqueued_at: iso(c.enqueuedAt),
  assigned_at: iso(c.assignedAt),
  closed_at: iso(c.closedAt),
  creation_date: c.createdAt.toISOString(),
  update_date: c.updatedAt.toISOString(),
});

export const presentActivity = (a: ChatActivityEntity): ChatActivityResponse => ({
  activity_id: a.id,
  chat_id: a.chatId,
  actor_type: a.actorType,
  actor: a.actor,
  activity_type: a.activityType,
  text: a.text,
  message_id: a.messageId,
  message_status: a.messageStatus,
  chat_status: a.chatStatus,
  owner: a.owner,
  creation_date: a.createdAt.toISOString(),
});
