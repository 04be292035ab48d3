import { EntityClass, PLATFORM_MIGRATIONS, serviceDataSourceOptions } from '@kyc/platform';
import { DataSource } from 'typeorm';

import { AuditLogEntity } from '../audit/audit-log.entity';
import { FinishedCheckEntity } from '../finished-checks/finished-check.entity';
import { RoleEntity } from '../roles/role.entity';
import { rulesEntities } from '../rules/rules.entities';
import { TenantEntity } from '../tenants/tenant.entity';
import { UserEntity } from '../users/user.entity';
import { CreateAccount1763769602000 } from './migrations/1763769602000-create-account';
import { CreateAuditLog1763769800000 } from './migrations/1763769800000-create-audit-log';
import { CreateRulesEngine1763770400000 } from './migrations/1763770400000-create-rules-engine';
import { UsersAndRoles1763770500000 } from './migrations/1763770500000-users-and-roles';

export const accountEntities: EntityClass[] = [
  TenantEntity,
  UserEntity,
  RoleEntity,
  FinishedCheckEntity,
  AuditLogEntity,
  ...rulesEntities,
];
export const accountMigrations = [
  ...PLATFORM_MIGRATIONS,
  CreateAccount1763769602000,
  CreateAuditLog1763769800000,
  CreateRulesEngine1763770400000,
  UsersAndRoles1763770500000,
];

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(
  serviceDataSourceOptions({
    url: process.env.DATABASE_URL ?? '',
    schema: process.env.DB_SCHEMA ?? 'account',
    entities: accountEntities,
    migrations: accountMigrations,
  }),
);
