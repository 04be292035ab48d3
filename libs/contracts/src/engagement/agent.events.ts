/** An agent went online or offline, or changed the queues she serves (`engagement.agent.status-changed`). */
export interface AgentStatusChangedEvent {
  /** The agent's e-mail (lowercased). */
  username: string;
  user_id: string;
  status: 'online' | 'offline';
  previous_status: 'online' | 'offline';
  /** Queues (line phones or group names) she serves now; empty: every queue. */
  groups: string[];
  previous_groups: string[];
  /** Her effective capacity (her own, else the tenant's default) and the chats she works, at the change. */
  capacity: number;
  active_chats: number;
  /** The agent herself (`self`) or a manager (`manager`). */
  changed_by: 'self' | 'manager';
  changed_at: string;
}
