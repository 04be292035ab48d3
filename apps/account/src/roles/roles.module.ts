import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { AccessStatePublisher } from '../access/access-state.publisher';
import { BuiltInRolesSyncService } from './built-in-roles-sync.service';
import { RoleEntity } from './role.entity';
import { RolesController } from './roles.controller';
import { RolesService } from './roles.service';

@Module({
  imports: [TypeOrmModule.forFeature([RoleEntity])],
  controllers: [RolesController],
  providers: [RolesService, AccessStatePublisher, BuiltInRolesSyncService],
})
export class RolesModule {}
