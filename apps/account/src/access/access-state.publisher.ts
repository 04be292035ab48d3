import {
  ACCESS_EVENT_TYPES,
  RoleState,
  roleStateKey,
  TOPICS,
  UserState,
  userStateKey,
  UserStatus,
} from '@kyc/contracts';
import { OutboxService } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** What the published state of a user is made of (a UserEntity has it). */
export interface AccessUser {
  tenantId: string;
  id: string;
  username: string;
  role: string;
  status: UserStatus;
}

/** What the published state of a role is made of (a RoleEntity has it). */
export interface AccessRole {
  tenantId: string;
  name: string;
  permissions: string[];
  accessRules: unknown[];
}

/**
 * Publishes the current state of users and roles to the compacted topics every service folds
 * into its access cache. Called inside the transaction of the change.
 */
@Injectable()
export class AccessStatePublisher {
  constructor(private readonly outbox: OutboxService) {}

  users(manager: EntityManager, ...users: AccessUser[]) {
    return this.outbox.add(
      manager,
      ...users.map((u) => ({
        topic: TOPICS.userState,
        type: ACCESS_EVENT_TYPES.userChanged,
        tenantId: u.tenantId,
        aggregateId: userStateKey(u.tenantId, u.id),
        payload: {
          tenant_id: u.tenantId,
          user_id: u.id,
          username: u.username,
          role: u.role,
          status: u.status,
        } satisfies UserState,
      })),
    );
  }

  userDeleted(manager: EntityManager, user: AccessUser) {
    return this.outbox.add(manager, {
      topic: TOPICS.userState,
      type: ACCESS_EVENT_TYPES.userDeleted,
      tenantId: user.tenantId,
      aggregateId: userStateKey(user.tenantId, user.id),
      payload: null,
    });
  }

  roles(manager: EntityManager, ...roles: AccessRole[]) {
    return this.outbox.add(
      manager,
      ...roles.map((r) => ({
        topic: TOPICS.roleState,
        type: ACCESS_EVENT_TYPES.roleChanged,
        tenantId: r.tenantId,
        aggregateId: roleStateKey(r.tenantId, r.name),
        payload: {
          tenant_id: r.tenantId,
          name: r.name,
          permissions: r.permissions,
          access_rules: r.accessRules,
        } satisfies RoleState,
      })),
    );
  }

  /** A tombstone: every access cache forgets the role. */
  roleDeleted(manager: EntityManager, role: AccessRole) {
    return this.outbox.add(manager, {
      topic: TOPICS.roleState,
      type: ACCESS_EVENT_TYPES.roleDeleted,
      tenantId: role.tenantId,
      aggregateId: roleStateKey(role.tenantId, role.name),
      payload: null,
    });
  }
}
