import { ENGAGEMENT_MANAGE } from '@kyc/contracts';
import { Caller } from '@kyc/platform';

import { ChatEntity } from './chat.entity';
import { ChatErrorCode, ChatException } from './chats.exception';

/**
 * Who may act on a chat (the routes have already checked the caller holds an agent's or a
 * manager's permission): a manager (`engagement.agents.manage`) acts on every chat; an agent acts
 * on the chats it owns, and may take an unassigned chat for itself. Agents are users of the
 * account, known by their username (their e-mail).
 */
export const isManager = (caller: Caller): boolean => caller.hasAny(ENGAGEMENT_MANAGE);

/** The caller as an agent: its e-mail, lowercased as agents and owners are stored. */
export const agentEmail = (caller: Caller): string | undefined => caller.username?.toLowerCase();

/** Throws 403 `not_chat_owner` unless the caller is a manager or the chat's owner. */
export function requireChatOwner(caller: Caller, chat: ChatEntity): void {
  if (isManager(caller)) return;
  const me = agentEmail(caller);
  if (!me || chat.owner !== me)
    throw new ChatException(
      ChatErrorCode.NotChatOwner,
      `chat ${chat.id} is ${chat.owner ? 'owned by another agent' : 'not assigned to you'}: only its owner or a manager (engagement.agents.manage) may act on it`,
    );
}

/**
 * An agent without the manager's permission may take an unassigned open chat for itself (or keep
 * one it owns); giving a chat to someone else is the owner's hand-over or a manager's decision.
 */
export function requireTakeOrOwn(caller: Caller, chat: ChatEntity, target: string | undefined): void {
  if (isManager(caller)) return;
  const me = agentEmail(caller);
  if (me && !chat.owner && target?.toLowerCase() === me) return;
  requireChatOwner(caller, chat);
}
