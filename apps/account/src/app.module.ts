import { PlatformModule, ServiceDefinition, ServiceOptions } from '@kyc/platform';
import { DynamicModule, Module } from '@nestjs/common';

import { AuditModule } from './audit/audit.module';
import { CheckResultsModule } from './check-results/check-results.module';
import { AccountConfig, loadAccountConfig } from './config/account.config';
import { accountEntities, accountMigrations } from './database/account.datasource';
import { PermissionsModule } from './permissions/permissions.module';
import { RolesModule } from './roles/roles.module';
import { createTenantCommand } from './tenants/tenants.admin';
import { TenantsModule } from './tenants/tenants.module';
import { UsersModule } from './users/users.module';

@Module({})
export class AppModule {
  static register(config: AccountConfig, options: ServiceOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          config,
          entities: accountEntities,
          migrations: accountMigrations,
          clock: options.clock,
        }),
        AuditModule,
        TenantsModule,
        UsersModule,
        RolesModule,
        PermissionsModule,
        CheckResultsModule,
      ],
    };
  }
}

export function accountService(env: NodeJS.ProcessEnv = process.env, options: ServiceOptions = {}): ServiceDefinition {
  const config = loadAccountConfig(env);
  return {
    config,
    module: AppModule.register(config, options),
    entities: accountEntities,
    migrations: accountMigrations,
    consumesEvents: true,
    title: 'Account API',
    description: 'Users, roles, permissions and the business-rules engine',
    adminCommands: { 'create-tenant': createTenantCommand },
  };
}
