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

/**
 * A manager changed capacities (`engagement.agent.capacity-changed`): one event per agent whose own
 * capacity changed (`update_type` user, with `username`), or one for the tenant (`default`: the
 * default capacity of agents without their own; `toggle_capacity`: limits on or off; no `username`).
 */
export interface AgentCapacityChangedEvent {
  update_type: 'user' | 'default' | 'toggle_capacity';
  /** The agent's e-mail (lowercased); absent for a change of the tenant's settings. */
  username?: string;
  user_id?: string;
  /** Her own capacity now and before (null: the tenant's default). */
  own_capacity?: number;
  previous_own_capacity?: number | null;
  /** Her effective capacity and the chats she works, at the change. */
  capacity?: number;
  active_chats?: number;
  status?: 'online' | 'offline';
  /** The tenant's settings after the change. */
  default_capacity: number;
  capacity_enabled: boolean;
  changed_at: string;
}
