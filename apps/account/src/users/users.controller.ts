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
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { ChangeUserStatusDto } from './dto/change-user-status.dto';
import { CreateUserDto } from './dto/create-user.dto';
import { DeleteUserDto } from './dto/delete-user.dto';
import { ListUsersQuery } from './dto/list-users.query';
import { UpdateUserDto } from './dto/update-user.dto';
import { USER_EXAMPLE, USER_SELF, UserResponse } from './dto/user.response';
import { presentUser, userPath } from './user.presenter';
import { UsersService } from './users.service';

const one = (user: Parameters<typeof presentUser>[0]) => ({ user: presentUser(user), self: userPath(user.username) });

/** User administration (needs svc.users). `{username}` is the e-mail, URL-encoded (`@` → %40, `+` → %2B). */
@ApiTags('users')
@RequirePermissions('svc.users')
@BackendKeys()
@Controller('v1/account/users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  @ApiSuccess({
    status: 201,
    wrap: 'user',
    type: UserResponse,
    with: { self: { type: 'string' } },
    example: { user: USER_EXAMPLE, self: USER_SELF },
  })
  @ApiEnvelopeErrors(400, 403, { 409: ['User ana@acme.co already exists', 'user_already_exists'] }, 413)
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateUserDto) {
    return one(await this.users.create(caller, dto));
  }

  @Get()
  @ApiPage({ items: 'users', type: UserResponse, example: [USER_EXAMPLE], self: '/v1/account/users' })
  @ApiEnvelopeErrors(400, 403)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListUsersQuery, @Req() req: FastifyRequest) {
    const page = await this.users.list(caller, query);
    return { users: page.items.map(presentUser), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':username')
  @ApiSuccess({
    wrap: 'user',
    type: UserResponse,
    with: { self: { type: 'string' } },
    example: { user: USER_EXAMPLE, self: USER_SELF },
  })
  @ApiEnvelopeErrors(403, { 404: ['User ana@acme.co not found', 'user_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('username') username: string) {
    return one(await this.users.get(caller, username));
  }

  @Put(':username')
  @ApiSuccess({
    wrap: 'user',
    type: UserResponse,
    with: { self: { type: 'string' } },
    example: { user: USER_EXAMPLE, self: USER_SELF },
  })
  @ApiEnvelopeErrors(400, 403, { 404: ['User ana@acme.co not found', 'user_not_found'] }, 413)
  async update(@CurrentCaller() caller: Caller, @Param('username') username: string, @Body() dto: UpdateUserDto) {
    return one(await this.users.update(caller, username, dto));
  }

  @Patch(':username/status')
  @ApiSuccess({
    wrap: 'user',
    type: UserResponse,
    with: { self: { type: 'string' } },
    example: { user: { ...USER_EXAMPLE, status: 'disabled' }, self: USER_SELF },
  })
  @ApiEnvelopeErrors(
    400,
    403,
    { 404: ['User ana@acme.co not found', 'user_not_found'] },
    { 409: ['You cannot disable or delete your own user', 'self_modification_not_allowed'] },
    413,
  )
  async setStatus(
    @CurrentCaller() caller: Caller,
    @Param('username') username: string,
    @Body() dto: ChangeUserStatusDto,
  ) {
    return one(await this.users.setStatus(caller, username, dto));
  }

  @Delete()
  @ApiSuccess({
    wrap: 'user',
    type: UserResponse,
    with: { message: { type: 'string' } },
    example: { message: 'user ana@acme.co deleted', user: USER_EXAMPLE },
  })
  @ApiEnvelopeErrors(
    400,
    403,
    { 404: ['User ana@acme.co not found', 'user_not_found'] },
    { 409: ['You cannot disable or delete your own user', 'self_modification_not_allowed'] },
  )
  @HttpCode(200)
  async delete(@CurrentCaller() caller: Caller, @Body() dto: DeleteUserDto) {
    const user = await this.users.delete(caller, dto.email);
    return { message: `user ${user.username} deleted`, user: presentUser(user) };
  }
}
