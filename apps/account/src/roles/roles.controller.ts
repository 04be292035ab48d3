import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  pageLinks,
  PlatformConfig,
  RequirePermissions,
} from '@kyc/platform';
import { Body, Controller, Delete, Get, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { CreateRoleDto } from './dto/create-role.dto';
import { ListRolesQuery } from './dto/list-roles.query';
import { ROLE_EXAMPLE, RoleResponse } from './dto/role.response';
import { UpdateRoleDto } from './dto/update-role.dto';
import { RoleEntity } from './role.entity';
import { presentRole, rolePath } from './role.presenter';
import { RolesService } from './roles.service';

const one = (role: RoleEntity) => ({ role: presentRole(role), self: rolePath(role.name) });

/** Roles of the account (needs svc.users). */
@ApiTags('roles')
@RequirePermissions('svc.users')
@BackendKeys()
@Controller('v1/roles')
export class RolesController {
  constructor(
    private readonly roles: RolesService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  @ApiSuccess({
    status: 201,
    wrap: 'role',
    type: RoleResponse,
    with: { self: { type: 'string' } },
    example: { role: ROLE_EXAMPLE, self: '/v1/roles/analyst' },
  })
  @ApiEnvelopeErrors(400, 403, { 409: ['Role analyst already exists', 'role_already_exists'] }, 413)
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateRoleDto) {
    return one(await this.roles.create(caller, dto));
  }

  @Get()
  @ApiPage({ items: 'roles', type: RoleResponse, example: [ROLE_EXAMPLE], self: '/v1/roles' })
  @ApiEnvelopeErrors(400, 403)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListRolesQuery, @Req() req: FastifyRequest) {
    const page = await this.roles.list(caller, query);
    return { roles: page.items.map(presentRole), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':role_name')
  @ApiSuccess({
    wrap: 'role',
    type: RoleResponse,
    with: { self: { type: 'string' } },
    example: { role: ROLE_EXAMPLE, self: '/v1/roles/analyst' },
  })
  @ApiEnvelopeErrors(403, { 404: ['Role analyst not found', 'role_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('role_name') name: string) {
    return one(await this.roles.get(caller, name));
  }

  @Put(':role_name')
  @ApiSuccess({
    wrap: 'role',
    type: RoleResponse,
    with: { self: { type: 'string' } },
    example: { role: ROLE_EXAMPLE, self: '/v1/roles/analyst' },
  })
  @ApiEnvelopeErrors(
    400,
    { 403: ['Built-in roles cannot be changed', 'built_in_role'] },
    { 404: ['Role analyst not found', 'role_not_found'] },
    413,
  )
  async update(@CurrentCaller() caller: Caller, @Param('role_name') name: string, @Body() dto: UpdateRoleDto) {
    return one(await this.roles.update(caller, name, dto));
  }

  @Delete(':role_name')
  @ApiSuccess({
    wrap: 'role',
    type: RoleResponse,
    with: { message: { type: 'string' } },
    example: { message: 'role analyst deleted', role: ROLE_EXAMPLE },
  })
  @ApiEnvelopeErrors(
    { 403: ['Built-in roles cannot be changed', 'built_in_role'] },
    { 404: ['Role analyst not found', 'role_not_found'] },
    { 409: ['Role analyst is held by users', 'role_in_use'] },
  )
  async delete(@CurrentCaller() caller: Caller, @Param('role_name') name: string) {
    const role = await this.roles.delete(caller, name);
    return { message: `role ${role.name} deleted`, role: presentRole(role) };
  }
}
