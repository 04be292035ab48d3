import { EntityManager } from 'typeorm';

import { newId } from '../shared/phones';
import { ActivityType, ActorType, ChatActivityEntity, ChatEntity } from './chat.entity';

/** What an activity records (the chat, time and id are filled in). */
export interface NewActivity {
  actorType: ActorType;
  actor?: string | null;
  activityType: ActivityType;
  text?: string | null;
  messageId?: string | null;
  messageStatus?: string | null;
  chatStatus?: string | null;
  owner?: string | null;
}

/**
 * Appends an activity to a chat and makes it the chat's latest (what search filters by). A
 * message's delivery status is recorded without becoming the latest activity: an agent waiting
 * for a user should not see its chat move because a message was read.
 */
export async function addActivity(
  m: EntityManager,
  chat: ChatEntity,
  a: NewActivity,
  at: Date,
  latest = true,
): Promise<ChatActivityEntity> {
  const activity = m.create(ChatActivityEntity, {
    id: newId('ACT'),
    tenantId: chat.tenantId,
    chatId: chat.id,
    actorType: a.actorType,
    actor: a.actor ?? null,
    activityType: a.activityType,
    text: a.text ?? null,
    messageId: a.messageId ?? null,
    messageStatus: a.messageStatus ?? null,
    chatStatus: a.chatStatus ?? null,
    owner: a.owner ?? null,
    createdAt: at,
  });
  await m.insert(ChatActivityEntity, activity);
  if (latest) {
    chat.lastActivityAt = at;
    chat.lastActorType = a.actorType;
    chat.lastActivityType = a.activityType;
    chat.updatedAt = at;
    await m.update(
      ChatEntity,
      { id: chat.id },
      { lastActivityAt: at, lastActorType: a.actorType, lastActivityType: a.activityType, updatedAt: at },
    );
  }
  return activity;
}
