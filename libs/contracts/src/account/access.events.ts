/** State records published on the compacted topics that every service folds into its access cache. */
export const ACCESS_EVENT_TYPES = {
  userChanged: 'account.user.changed',
  userDeleted: 'account.user.deleted',
  roleChanged: 'account.role.changed',
  roleDeleted: 'account.role.deleted',
  apiKeyChanged: 'identity.api-key.changed',
} as const;

export type UserStatus = 'enabled' | 'disabled';

export interface UserState {
  tenant_id: string;
  user_id: string;
  username: string;
  role: string;
  status: UserStatus;
}

export interface RoleState {
  tenant_id: string;
  name: string;
  permissions: string[];
  /** JSON-Logic expressions; a record is visible when every rule holds for it. */
  access_rules: unknown[];
}

export interface ApiKeyState {
  tenant_id: string;
  key_id: string;
  revoked: boolean;
}

export const userStateKey = (tenantId: string, userId: string) => `${tenantId}/${userId}`;
export const roleStateKey = (tenantId: string, name: string) => `${tenantId}/${name}`;
