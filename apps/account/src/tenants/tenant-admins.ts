import type { EntityManager } from 'typeorm';

import type { AccessUser } from '../access/access-state.publisher';

/**
 * The administrator a new tenant gets. Users answer it (UsersService, bound by the global
 * UsersModule), so tenants do not depend on users.
 */
export abstract class TenantAdmins {
  /** The tenant's user with this e-mail, created as its full_access administrator when there is none. */
  abstract admin(m: EntityManager, tenantId: string, email: string): Promise<AccessUser>;
}
