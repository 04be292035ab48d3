/** Event types of the agent workspace (each is also its Kafka topic). */
export const CHAT_EVENT_TYPES = {
  chatOpened: 'engagement.chat.opened',
  chatAssigned: 'engagement.chat.assigned',
  chatClosed: 'engagement.chat.closed',
} as const;

/** What every chat event says about the chat (customers folds it into the user's profile). */
export interface ChatEventBase {
  chat_id: string;
  /** The line, E.164. */
  waba_phone_number: string;
  /** The user's phone, E.164. */
  user_phone_number: string;
  contact_name?: string;
  status: 'open' | 'closed';
  tags: string[];
}

/** A user's message opened a chat on a line (`engagement.chat.opened`). */
export interface ChatOpenedEvent extends ChatEventBase {
  opened_at: string;
}

/** A chat was given to an agent (`engagement.chat.assigned`), by the ruleset, a force-dequeue or an owner update. */
export interface ChatAssignedEvent extends ChatEventBase {
  /** The agent's e-mail. */
  owner: string;
  previous_owner?: string;
  assigned_by: 'ruleset' | 'force_dequeue' | 'owner_update';
  assigned_at: string;
}

/** A chat was closed (`engagement.chat.closed`). */
export interface ChatClosedEvent extends ChatEventBase {
  owner?: string;
  opened_at: string;
  closed_at: string;
  /** Messages of the conversation (user and agent). */
  messages: number;
}
