import type { EntityManager } from 'typeorm';

/**
 * Who holds a role, asked before the role is deleted. Users answer it (UsersService, bound by the
 * global UsersModule), so roles do not depend on users.
 */
export abstract class RoleHolders {
  /** How many users of the tenant hold the role, in the caller's transaction. */
  abstract count(m: EntityManager, tenantId: string, role: string): Promise<number>;
}
