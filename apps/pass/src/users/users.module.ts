import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { PassUserEntity } from './pass-user.entity';
import { PassUsersController } from './pass-users.controller';
import { PassUsersService } from './pass-users.service';

/** The people who sign in to pass (`/v1/admin/users` seeds them), read by the provider, sign-in and userinfo. */
@Module({
  imports: [TypeOrmModule.forFeature([PassUserEntity])],
  controllers: [PassUsersController],
  providers: [PassUsersService],
  exports: [PassUsersService],
})
export class UsersModule {}
