import { domainException } from '@kyc/platform';

export enum ChatErrorCode {
  ChatNotFound = 'chat_not_found',
  ChatClosed = 'chat_closed',
  AgentNotFound = 'agent_not_found',
  AgentAtCapacity = 'agent_at_capacity',
  SessionWindowClosed = 'session_window_closed',
  OpenChatExists = 'open_chat_exists',
  NotChatOwner = 'not_chat_owner',
}

const STATUS: Record<ChatErrorCode, number> = {
  [ChatErrorCode.ChatNotFound]: 404,
  [ChatErrorCode.ChatClosed]: 409,
  [ChatErrorCode.AgentNotFound]: 404,
  [ChatErrorCode.AgentAtCapacity]: 409,
  [ChatErrorCode.SessionWindowClosed]: 409,
  [ChatErrorCode.OpenChatExists]: 409,
  [ChatErrorCode.NotChatOwner]: 403,
};

export class ChatException extends domainException<ChatErrorCode>(STATUS) {}
