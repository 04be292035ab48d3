import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { SessionController } from './auth/session.controller';
import { SignInService } from './auth/sign-in.service';
import { SignInMailer } from './auth/sign-in-mailer';
import { CallKeysService } from './services/call-keys.service';
import { ServiceCallsService } from './services/service-calls.service';
import { ServiceProxyController } from './services/service-proxy.controller';
import { SessionEntity } from './sessions/session.entity';
import { SessionGuard } from './sessions/session.guard';
import { SessionsService } from './sessions/sessions.service';
import { WebController } from './web/web.controller';

@Module({
  imports: [TypeOrmModule.forFeature([SessionEntity])],
  controllers: [SessionController, ServiceProxyController, WebController],
  providers: [SessionsService, SessionGuard, SignInService, SignInMailer, CallKeysService, ServiceCallsService],
})
export class ConsoleModule {}
