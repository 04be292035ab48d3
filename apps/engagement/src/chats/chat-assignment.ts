import { EntityManager } from 'typeorm';

import { ChatEntity } from './chat.entity';

/**
 * Who a chat goes to: the queues and agents' capacities. Assignment answers it (AssignmentService,
 * bound by the global AssignmentModule), so chats do not depend on assignment.
 */
export abstract class ChatAssignment {
  /** Gives a locked, open, unassigned chat to a free agent, if one is; answers whether it did. */
  abstract assign(m: EntityManager, chat: ChatEntity): Promise<boolean>;

  /**
   * Gives a locked open chat to the agent `email` if it has room (else 404 `agent_not_found` or
   * 409 `agent_at_capacity`), freeing its previous owner.
   */
  abstract handOver(
    m: EntityManager,
    chat: ChatEntity,
    email: string,
    by: 'force_dequeue' | 'owner_update',
  ): Promise<void>;

  /** Frees the capacity a chat held on its owner (closing or moving it). */
  abstract release(m: EntityManager, tenantId: string, owner: string | null): Promise<void>;

  /** Hands queued chats of the tenant to free agents; answers how many. */
  abstract drain(tenantId: string): Promise<number>;
}
