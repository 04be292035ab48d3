import { createContext, ReactNode, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { Outlet } from 'react-router-dom';

/** The push channel's events (engagement's GET /v1/engagement/inbox/events, through the console). */
export type ChatEventType = 'message.received' | 'message.status' | 'chat.opened' | 'chat.assigned' | 'chat.closed';
export type InboxEventType = ChatEventType | 'agent.status' | 'agent.capacity';
export const INBOX_EVENT_TYPES: InboxEventType[] = [
  'message.received',
  'message.status',
  'chat.opened',
  'chat.assigned',
  'chat.closed',
  'agent.status',
  'agent.capacity',
];

/** A chat's event: its id on the channel, its type, and what engagement says (chat_id, owner, at, and the type's data). */
export interface ChatInboxEvent {
  id: number;
  type: ChatEventType;
  data: {
    chat_id: string;
    owner: string | null;
    previous_owner?: string;
    at: string;
    activity?: Activity;
    message_id?: string;
    status?: string;
    error?: string;
    [key: string]: unknown;
  };
}

/** An agent went online or offline or changed her queues (managers' channels, and her own). */
export interface AgentStatusEvent {
  id: number;
  type: 'agent.status';
  data: {
    username: string;
    status: 'online' | 'offline';
    previous_status: 'online' | 'offline';
    groups: string[];
    capacity: number;
    active_chats: number;
    changed_by: 'self' | 'manager';
    at: string;
  };
}

/**
 * A manager changed an agent's own capacity (`username` set), or the account's default or limits
 * (no `username`: managers' channels only).
 */
export interface AgentCapacityEvent {
  id: number;
  type: 'agent.capacity';
  data: {
    update_type: 'user' | 'default' | 'toggle_capacity';
    username?: string;
    own_capacity?: number;
    capacity?: number;
    active_chats?: number;
    default_capacity: number;
    capacity_enabled: boolean;
    at: string;
  };
}

/** One event of the channel. */
export type InboxEvent = ChatInboxEvent | AgentStatusEvent | AgentCapacityEvent;

/** A chat activity as engagement presents it. */
export interface Activity {
  activity_id: string;
  chat_id: string;
  actor_type: string;
  actor: string | null;
  activity_type: string;
  text: string | null;
  message_id: string | null;
  message_status: string | null;
  chat_status: string | null;
  owner: string | null;
  creation_date: string;
}

export type ChannelState = 'connecting' | 'open' | 'reconnecting';

interface Channel {
  state: ChannelState;
  /** Bumped on every `hello`/`reset`: pages reload their lists then (the events after it come on top). */
  generation: number;
  subscribe: (listener: (e: InboxEvent) => void) => () => void;
}

const ChannelContext = createContext<Channel | null>(null);
const URL_PATH = '/api/services/engagement/v1/engagement/inbox/events';

/**
 * The session's one push channel, open while an inbox page is shown. The browser's EventSource
 * reconnects by itself with Last-Event-ID; when it gave up (an error it does not retry), or the
 * network went away (closed then) and came back, the channel is opened again after the last id it
 * saw (`last_event_id`). An
 * event whose id is not above the last one seen is dropped, so none is applied twice.
 */
export function InboxChannelProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ChannelState>('connecting');
  const [generation, setGeneration] = useState(0);
  const listeners = useRef(new Set<(e: InboxEvent) => void>());
  const lastId = useRef<number | undefined>(undefined);

  useEffect(() => {
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const open = () => {
      clearTimeout(retry);
      source?.close();
      const url = lastId.current === undefined ? URL_PATH : `${URL_PATH}?last_event_id=${lastId.current}`;
      const s = new EventSource(url);
      source = s;
      const start = (e: MessageEvent<string>) => {
        lastId.current = Number(e.lastEventId);
        setState('open');
        setGeneration((g) => g + 1);
      };
      s.addEventListener('hello', (e) => {
        const resumed = (JSON.parse((e as MessageEvent<string>).data) as { resumed?: boolean }).resumed;
        lastId.current = Number((e as MessageEvent<string>).lastEventId);
        setState('open');
        // A resumed channel replays what it missed: the lists stay; a new one reloads them.
        if (!resumed) setGeneration((g) => g + 1);
      });
      s.addEventListener('reset', start as EventListener);
      for (const type of INBOX_EVENT_TYPES)
        s.addEventListener(type, (e) => {
          const m = e as MessageEvent<string>;
          const id = Number(m.lastEventId);
          if (lastId.current !== undefined && id <= lastId.current) return;
          lastId.current = id;
          const event = { id, type, data: JSON.parse(m.data) as unknown } as InboxEvent;
          for (const l of listeners.current) l(event);
        });
      s.onerror = () => {
        if (stopped) return;
        setState('reconnecting');
        if (s.readyState === EventSource.CLOSED) retry = setTimeout(open, 1000);
      };
    };
    // The network went away: a connection left open may hang half-closed for minutes, so it is
    // closed now and opened again, after the last id seen, when the network is back.
    const offline = () => {
      clearTimeout(retry);
      source?.close();
      source = undefined;
      setState('reconnecting');
    };
    const online = () => {
      if (!source || source.readyState !== EventSource.OPEN) open();
    };
    open();
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, []);

  const value = useMemo<Channel>(
    () => ({
      state,
      generation,
      subscribe: (listener) => {
        listeners.current.add(listener);
        return () => void listeners.current.delete(listener);
      },
    }),
    [state, generation],
  );
  return <ChannelContext.Provider value={value}>{children}</ChannelContext.Provider>;
}

/** The inbox pages' frame: the push channel around them. */
export default function InboxRoot() {
  return (
    <InboxChannelProvider>
      <Outlet />
    </InboxChannelProvider>
  );
}

export function useChannel(): Channel {
  const value = useContext(ChannelContext);
  if (!value) throw new Error('useChannel outside InboxChannelProvider');
  return value;
}

/** Calls `listener` with every event of the channel while the component is shown. */
export function useInboxEvents(listener: (e: InboxEvent) => void): void {
  const channel = useChannel();
  const ref = useRef(listener);
  ref.current = listener;
  const { subscribe } = channel;
  useEffect(() => subscribe((e) => ref.current(e)), [subscribe]);
}
