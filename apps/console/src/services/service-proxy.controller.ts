import { Public } from '@kyc/platform';
import { Controller, Delete, Get, Param, Patch, Post, Put, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { CurrentSession, SessionGuard } from '../sessions/session.guard';
import { OpenSession } from '../sessions/sessions.service';
import { ServiceCallsService } from './service-calls.service';

/** The page's calls to a service: `/api/services/<service>/v1/...`. */
export const SERVICE_CALL_PATH = 'api/services/:service/*';
/** Content types of a file the page sends through (a batch's xlsx), read as raw bytes on SERVICE_CALL_PATH only. */
export const FILE_CONTENT_TYPES = [
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/octet-stream',
];
/** The largest file passed through: the checks service's default batch file limit (it applies its own). */
export const FILE_MAX_BYTES = 20 * 1024 * 1024;

/**
 * The page's calls to the services' public APIs (`/api/services/<service>/v1/...`), made with the
 * signed-in user's short-lived key: each service's own guard decides what her role may do.
 * One decorator per method (not @All) so the platform sees the route's @Public() before the body.
 */
@ApiExcludeController()
@Public()
@UseGuards(SessionGuard)
@Controller()
export class ServiceProxyController {
  constructor(private readonly calls: ServiceCallsService) {}

  @Get(SERVICE_CALL_PATH)
  get(
    @Param('service') s: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @CurrentSession() o: OpenSession,
  ) {
    return this.calls.forward(s, req, reply, o);
  }

  @Post(SERVICE_CALL_PATH)
  post(
    @Param('service') s: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @CurrentSession() o: OpenSession,
  ) {
    return this.calls.forward(s, req, reply, o);
  }

  @Put(SERVICE_CALL_PATH)
  put(
    @Param('service') s: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @CurrentSession() o: OpenSession,
  ) {
    return this.calls.forward(s, req, reply, o);
  }

  @Patch(SERVICE_CALL_PATH)
  patch(
    @Param('service') s: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @CurrentSession() o: OpenSession,
  ) {
    return this.calls.forward(s, req, reply, o);
  }

  @Delete(SERVICE_CALL_PATH)
  delete(
    @Param('service') s: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @CurrentSession() o: OpenSession,
  ) {
    return this.calls.forward(s, req, reply, o);
  }
}
