import { bff } from '../api/client';
import { startKeyOf } from '../shared/PagedTable';
import type { Activity } from './channel';

/** Calls of the inbox pages to engagement's agent workspace (through the console, with the session). */
const eng = <T>(method: string, path: string, body?: unknown) =>
  bff<T>(method, `/api/services/engagement${path}`, body);

export interface Chat {
  chat_id: string;
  line: string;
  queue: string;
  contact: { phone: string; name: string | null };
  status: 'open' | 'closed';
  owner: string | null;
  enqueued: boolean;
  tags: string[];
  last_activity: { date: string; actor_type: string; activity_type: string };
  creation_date: string;
}

export interface Agent {
  username: string;
  status: 'online' | 'offline';
  capacity: number;
  own_capacity: boolean;
  active_chats: number;
  free_capacity: number;
  groups: string[];
  last_assigned_at: string | null;
}

export interface GroupCounters {
  group: string;
  agents_online: number;
  agents_offline: number;
  chats_enqueued: number;
  chats_assigned: number;
}

export interface Outbound {
  outbound_id: string;
  outbound_name: string;
  content?: string;
  status: string;
  language_code: string;
}

export interface Ruleset {
  ruleset_id: string;
  strategy: string;
  online_only: boolean;
  capacity_enabled: boolean;
  default_capacity: number;
}

export interface AgentTemplate {
  template_name: string;
  template_type: string;
  content?: string | null;
}

export interface ChatExport {
  export_id: string;
  status: 'pending' | 'completed' | 'failed';
  export_type: 'all_chats' | 'single_chat';
  language: string;
  name?: string | null;
  chat_id?: string | null;
  time_range_start_date: string;
  time_range_end_date: string;
  requested_by: string;
  rows?: number | null;
  creation_date: string;
  download_url?: string;
}

export interface ExportRequest {
  language: string;
  export_type: 'all_chats' | 'single_chat';
  export_format: 'tsv';
  time_range_start_date: string;
  time_range_end_date: string;
  chat_id?: string;
  name?: string;
}

/** A page of a list answer (`next` while there are more). */
export interface Page {
  next?: string;
}

const q = (params: Record<string, string | undefined>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') s.set(k, v);
  const text = s.toString();
  return text ? `?${text}` : '';
};

/** Every page of a list (bounded: `maxPages`). */
async function all<T>(path: (startKey?: string) => string, key: string, maxPages = 20): Promise<T[]> {
  const items: T[] = [];
  let startKey: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const page = await eng<Record<string, unknown> & { next?: string }>('GET', path(startKey));
    items.push(...((page[key] as T[]) ?? []));
    startKey = startKeyOf(page.next);
    if (!startKey) break;
  }
  return items;
}

/** Exports per page of the managers' list. */
export const EXPORTS_PAGE_SIZE = 10;

export const inbox = {
  me: (username: string) =>
    eng<{ agents: Agent[] }>('GET', `/v1/engagement/agent/status${q({ username })}`).then(
      (r) => r.agents.find((a) => a.username === username.toLowerCase()) ?? null,
    ),
  agents: () => all<Agent>((k) => `/v1/engagement/agent/status${q({ start_key: k })}`, 'agents'),
  setStatus: (username: string, status: 'online' | 'offline') =>
    eng<Agent>('POST', '/v1/engagement/agent/status', { username, status }),
  myChats: (owner: string) =>
    all<Chat>(
      (k) => `/v1/engagement/chat/search${q({ owner, status: 'open', limit: '100', start_key: k })}`,
      'chats',
      5,
    ),
  queued: () =>
    all<Chat>(
      (k) => `/v1/engagement/chat/search${q({ status: 'UNASSIGNED', limit: '100', start_key: k })}`,
      'chats',
      5,
    ),
  chat: (id: string) => eng<Chat>('GET', `/v1/engagement/chat/${encodeURIComponent(id)}`),
  activities: (id: string) =>
    all<Activity>(
      (k) => `/v1/engagement/chat/${encodeURIComponent(id)}/activities${q({ limit: '100', start_key: k })}`,
      'activities',
      50,
    ),
  send: (id: string, body: { text: string } | { outbound_id: string; var: Record<string, string> }) =>
    eng<Activity>('POST', `/v1/engagement/chat/${encodeURIComponent(id)}/send`, body),
  note: (id: string, text: string) =>
    eng<Activity>('POST', `/v1/engagement/chat/${encodeURIComponent(id)}/notes`, { text }),
  update: (id: string, body: { owner?: string; status?: 'open' | 'closed'; tags?: string[] }) =>
    eng<Chat>('PUT', `/v1/engagement/chat/agent/${encodeURIComponent(id)}`, body),
  forceDequeue: (id: string, target: string) =>
    eng<Chat>('POST', `/v1/engagement/chat/${encodeURIComponent(id)}/force-dequeue`, {
      assignment_type: 'specific_agent',
      target,
    }),
  approvedTemplates: (line: string) =>
    eng<{ outbounds?: Outbound[] } | Outbound[]>(
      'GET',
      `/v1/msg/outbounds${q({ line, status: 'APPROVED', pagination: 'true' })}`,
    ).then((r) => (Array.isArray(r) ? r : (r.outbounds ?? []))),
  setCapacity: (body: { update_type: 'user' | 'default' | 'toggle_capacity'; capacity?: number; targets?: string[] }) =>
    eng<unknown>('POST', '/v1/engagement/agent/capacities', body),
  counters: () =>
    eng<{ groups: GroupCounters[]; total?: Omit<GroupCounters, 'group'> }>(
      'GET',
      '/v1/engagement/agent/groups/counters',
    ),
  ruleset: () => eng<Ruleset>('GET', '/v1/engagement/agent/assignment-rulesets/default'),
  setStrategy: (strategy: string) =>
    eng<Ruleset>('PUT', '/v1/engagement/agent/assignment-rulesets/default', { strategy }),
  /** A page of the agent templates (by name; `prefix` filters). */
  templates: (query: { prefix?: string; start_key?: string }) =>
    eng<Page & { templates: AgentTemplate[] }>(
      'GET',
      `/v1/engagement/agent/templates${q({ limit: '20', prefix: query.prefix, start_key: query.start_key })}`,
    ),
  addTemplate: (template_name: string, content: string) =>
    eng<AgentTemplate>('POST', '/v1/engagement/agent/templates', {
      template_name,
      template_type: 'text',
      ...(content ? { content } : {}),
    }),
  editTemplate: (name: string, content: string) =>
    eng<AgentTemplate>('PUT', `/v1/engagement/agent/templates/${encodeURIComponent(name)}`, {
      template_type: 'text',
      ...(content ? { content } : {}),
    }),
  deleteTemplate: (name: string) =>
    eng<unknown>('DELETE', `/v1/engagement/agent/templates/${encodeURIComponent(name)}`),
  deleteTemplates: (template_names: string[]) =>
    eng<{ deleted: string[]; not_found: string[] }>('POST', '/v1/engagement/agent/templates/delete', {
      template_names,
    }),
  /** A page of the chat exports, newest first. */
  exports: (query: { start_key?: string }) =>
    eng<Page & { exports: ChatExport[] }>(
      'GET',
      `/v1/engagement/chat/export${q({ page_size: String(EXPORTS_PAGE_SIZE), start_key: query.start_key })}`,
    ),
  requestExport: (body: ExportRequest) => eng<ChatExport>('POST', '/v1/engagement/chat/export', body),
};

/** The variables of a template's text (`{{.name}}`), in order, once each. */
export const templateVariables = (content?: string): string[] => [
  ...new Set([...(content ?? '').matchAll(/\{\{\s*\.(\w+)\s*\}\}/g)].map((m) => m[1])),
];

/** The provider's customer-service window: free text only this long after the user's last message. */
export const SESSION_WINDOW_MS = 24 * 60 * 60 * 1000;
