import { RoleEntity } from './role.entity';

export function presentRole(role: RoleEntity) {
  return {
    name: role.name,
    description: role.description,
    permissions: role.permissions,
    access_rules: role.accessRules,
    built_in: role.builtIn,
    creation_date: role.createdAt.toISOString(),
    update_date: role.updatedAt.toISOString(),
  };
}

export const auditedRole = (role: RoleEntity): Record<string, unknown> => ({
  name: role.name,
  description: role.description,
  permissions: role.permissions,
  access_rules: role.accessRules,
});

export const rolePath = (name: string) => `/v1/roles/${encodeURIComponent(name)}`;
