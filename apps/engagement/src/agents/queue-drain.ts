/**
 * Hands queued chats to free agents, after an agent came online or capacities changed. Assignment
 * answers it (AssignmentService, bound by the global AssignmentModule), so agents do not depend on
 * assignment.
 */
export abstract class QueueDrain {
  /** Assigns queued chats of the tenant until no chat or no free agent is left; answers how many. */
  abstract drain(tenantId: string): Promise<number>;
}
