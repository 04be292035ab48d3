import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { FastifyInstance } from 'fastify';

import { SessionController } from './auth/session.controller';
import { SignInService } from './auth/sign-in.service';
import { SignInMailer } from './auth/sign-in-mailer';
import { CallKeysService } from './services/call-keys.service';
import { ServiceCallsService } from './services/service-calls.service';
import {
  FILE_CONTENT_TYPES,
  FILE_MAX_BYTES,
  SERVICE_CALL_PATH,
  ServiceProxyController,
} from './services/service-proxy.controller';
import { SessionEntity } from './sessions/session.entity';
import { SessionGuard } from './sessions/session.guard';
import { SessionsService } from './sessions/sessions.service';
import { WebController } from './web/web.controller';

@Module({
  imports: [TypeOrmModule.forFeature([SessionEntity])],
  controllers: [SessionController, ServiceProxyController, WebController],
  providers: [SessionsService, SessionGuard, SignInService, SignInMailer, CallKeysService, ServiceCallsService],
})
export class ConsoleModule implements OnModuleInit {
  constructor(private readonly http: HttpAdapterHost) {}

  /**
   * Files the page passes on to a service (a batch's xlsx to its upload link) are read as raw bytes,
   * up to FILE_MAX_BYTES, on the service-call route only: any other route refuses these types with 415.
   */
  onModuleInit(): void {
    const fastify = this.http.httpAdapter?.getInstance?.<FastifyInstance>();
    if (!fastify?.addContentTypeParser || fastify.hasContentTypeParser(FILE_CONTENT_TYPES[0])) return;
    fastify.addContentTypeParser(
      FILE_CONTENT_TYPES,
      { parseAs: 'buffer', bodyLimit: FILE_MAX_BYTES },
      (req, body, done) => {
        if (req.routeOptions?.url !== `/${SERVICE_CALL_PATH}`) {
          const err = Object.assign(new Error(`Unsupported Media Type: ${req.headers['content-type']}`), {
            statusCode: 415,
            code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
          });
          return done(err, undefined);
        }
        done(null, body);
      },
    );
  }
}
