import { Caller, CurrentCaller, pageLinks, PlatformConfig, RequirePermissions } from '@kyc/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { ChangeUserStatusDto } from './dto/change-user-status.dto';
import { CreateUserDto } from './dto/create-user.dto';
import { DeleteUserDto } from './dto/delete-user.dto';
import { ListUsersQuery } from './dto/list-users.query';
import { UpdateUserDto } from './dto/update-user.dto';
import { presentUser, userPath } from './user.presenter';
import { UsersService } from './users.service';

const one = (user: Parameters<typeof presentUser>[0]) => ({ user: presentUser(user), self: userPath(user.username) });

/** User administration (needs svc.users). `{username}` is the e-mail, URL-encoded (`@` → %40, `+` → %2B). */
@ApiTags('users')
@RequirePermissions('svc.users')
@Controller('v1/account/users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateUserDto) {
    return one(await this.users.create(caller, dto));
  }

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListUsersQuery, @Req() req: FastifyRequest) {
    const page = await this.users.list(caller, query);
    return { users: page.items.map(presentUser), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':username')
  async get(@CurrentCaller() caller: Caller, @Param('username') username: string) {
    return one(await this.users.get(caller, username));
  }

  @Put(':username')
  async update(@CurrentCaller() caller: Caller, @Param('username') username: string, @Body() dto: UpdateUserDto) {
    return one(await this.users.update(caller, username, dto));
  }

  @Patch(':username/status')
  async setStatus(
    @CurrentCaller() caller: Caller,
    @Param('username') username: string,
    @Body() dto: ChangeUserStatusDto,
  ) {
    return one(await this.users.setStatus(caller, username, dto));
  }

  @Delete()
  @HttpCode(200)
  async delete(@CurrentCaller() caller: Caller, @Body() dto: DeleteUserDto) {
    const user = await this.users.delete(caller, dto.email);
    return { message: `user ${user.username} deleted`, user: presentUser(user) };
  }
}
