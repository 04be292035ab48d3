import {
  AgentCapacityChangedEvent,
  AgentStatusChangedEvent,
  ChatAssignedEvent,
  ChatClosedEvent,
  ChatOpenedEvent,
  EventEnvelope,
  MessageReceivedEvent,
  MessageStatusChangedEvent,
  TOPICS,
} from '@kyc/contracts';

/** What the push channel names each event (the SSE `event:` field). */
export const INBOX_EVENT_TYPES = [
  'message.received',
  'message.status',
  'chat.opened',
  'chat.assigned',
  'chat.closed',
  'agent.status',
  'agent.capacity',
] as const;
export type InboxEventType = (typeof INBOX_EVENT_TYPES)[number];

/** The Kafka topics that feed the inbox. */
export const INBOX_TOPICS = [
  TOPICS.engagementMessageReceived,
  TOPICS.engagementMessageStatusChanged,
  TOPICS.engagementChatOpened,
  TOPICS.engagementChatAssigned,
  TOPICS.engagementChatClosed,
  TOPICS.engagementAgentStatusChanged,
  TOPICS.engagementAgentCapacityChanged,
];

/**
 * One row of the feed (table inbox_events): `seq` is the event's id on the push channel. A chat's
 * event has its chat; an agent's (`agent.status`, `agent.capacity`) has none, and its `owner` is the
 * agent it names (null: the tenant's capacity settings, for managers only).
 */
export interface InboxEventRow {
  seq: string;
  tenant_id: string;
  /** null: an agent's event, not a chat's. */
  chat_id: string | null;
  /** The chat's owner when the event happened (null: queued), or the agent an agent's event names; who may see it (visibleTo). */
  owner: string | null;
  previous_owner: string | null;
  type: InboxEventType;
  data: Record<string, unknown>;
  created_at: Date;
}

/** Who listens on a channel: the caller's tenant, and either every chat of it or her own and the queued ones. */
export interface InboxView {
  tenantId: string;
  /** The agent's e-mail (lowercased). */
  me?: string;
  /** Managers (engagement.agents.manage) and readers without an agent's permission see every chat of the tenant. */
  all: boolean;
}

/**
 * The channel's scoping, decided here and nowhere else: never another tenant's event; an agent
 * sees the events of the chats she owns, of the chats just taken from her (previous owner), and of
 * queued chats (which she may take), and of agents' events only those naming her; managers and readers see
 * the tenant's every chat and agent.
 */
export function visibleTo(
  row: Pick<InboxEventRow, 'tenant_id' | 'chat_id' | 'owner' | 'previous_owner'>,
  view: InboxView,
): boolean {
  if (row.tenant_id !== view.tenantId) return false;
  if (view.all) return true;
  if (row.chat_id === null) return !!view.me && row.owner === view.me;
  if (row.owner === null) return true;
  return !!view.me && (row.owner === view.me || row.previous_owner === view.me);
}

/** A row to append: everything but its seq. */
export type NewInboxEvent = Omit<InboxEventRow, 'seq' | 'created_at'> & { event_id: string; created_at: Date };

type ChatEvent = ChatOpenedEvent | ChatAssignedEvent | ChatClosedEvent;

const CHAT_TYPES: Record<string, InboxEventType> = {
  [TOPICS.engagementChatOpened]: 'chat.opened',
  [TOPICS.engagementChatAssigned]: 'chat.assigned',
  [TOPICS.engagementChatClosed]: 'chat.closed',
};

/** A chat lifecycle event as a feed row (its payload names the chat and owner; no lookup needed). */
export function chatEventRow(topic: string, e: EventEnvelope<ChatEvent>): NewInboxEvent | undefined {
  const type = CHAT_TYPES[topic];
  if (!type || !e.tenant_id || !e.payload?.chat_id) return undefined;
  const p = e.payload as ChatEvent & { owner?: string; previous_owner?: string };
  return {
    event_id: e.id,
    tenant_id: e.tenant_id,
    chat_id: p.chat_id,
    owner: p.owner ?? null,
    previous_owner: p.previous_owner ?? null,
    type,
    data: { ...p },
    created_at: new Date(e.occurred_at),
  };
}

export type MessageEvent = MessageReceivedEvent | MessageStatusChangedEvent;

const AGENT_TYPES: Record<string, InboxEventType> = {
  [TOPICS.engagementAgentStatusChanged]: 'agent.status',
  [TOPICS.engagementAgentCapacityChanged]: 'agent.capacity',
};

/**
 * An agent's event as a feed row: no chat; the agent it names is the row's one agent who sees it
 * (visibleTo), none when it names no agent (a change of the tenant's capacity settings: managers only).
 */
export function agentEventRow(
  topic: string,
  e: EventEnvelope<AgentStatusChangedEvent | AgentCapacityChangedEvent>,
): NewInboxEvent | undefined {
  const type = AGENT_TYPES[topic];
  if (!type || !e.tenant_id || !e.payload) return undefined;
  return {
    event_id: e.id,
    tenant_id: e.tenant_id,
    chat_id: null,
    owner: e.payload.username?.toLowerCase() ?? null,
    previous_owner: null,
    type,
    data: { ...e.payload },
    created_at: new Date(e.occurred_at),
  };
}
