/** Event types of the agent workspace (each is also its Kafka topic). */
export const CHAT_EVENT_TYPES = {
  chatOpened: 'engagement.chat.opened',
  chatAssigned: 'engagement.chat.assigned',
  chatClosed: 'engagement.chat.closed',
} as const;

/** A user's message opened a chat on a line (`engagement.chat.opened`). */
export interface ChatOpenedEvent {
  chat_id: string;
  line: string;
  /** E.164 phone of the user. */
  phone: string;
  contact_name?: string;
  opened_at: string;
}

/** A chat was given to an agent (`engagement.chat.assigned`), by the ruleset, a force-dequeue or an owner update. */
export interface ChatAssignedEvent {
  chat_id: string;
  line: string;
  phone: string;
  /** The agent's e-mail. */
  owner: string;
  previous_owner?: string;
  assigned_by: 'ruleset' | 'force_dequeue' | 'owner_update';
  assigned_at: string;
}

/** A chat was closed (`engagement.chat.closed`). */
export interface ChatClosedEvent {
  chat_id: string;
  line: string;
  phone: string;
  owner?: string;
  opened_at: string;
  closed_at: string;
  /** Messages of the conversation (user and agent). */
  messages: number;
}
