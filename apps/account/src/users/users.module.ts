import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { AccessStatePublisher } from '../access/access-state.publisher';
import { RoleHolders } from '../roles/role-holders';
import { TenantAdmins } from '../tenants/tenant-admins';
import { UserEntity } from './user.entity';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

/**
 * Global so that roles and tenants reach users only through the ports they declare (RoleHolders,
 * TenantAdmins), without importing this module: users depend on roles and tenants, not the reverse.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity])],
  controllers: [UsersController],
  providers: [
    UsersService,
    AccessStatePublisher,
    { provide: RoleHolders, useExisting: UsersService },
    { provide: TenantAdmins, useExisting: UsersService },
  ],
  exports: [RoleHolders, TenantAdmins],
})
export class UsersModule {}
