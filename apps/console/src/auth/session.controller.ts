import { AccessCacheService, NoRateLimit, Public } from '@kyc/platform';
import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { ConsoleConfig } from '../config/console.config';
import { CallKeysService } from '../services/call-keys.service';
import { CurrentSession, SessionGuard } from '../sessions/session.guard';
import { clearSessionCookie, setSessionCookie } from '../sessions/session-cookie';
import { OpenSession, SessionsService } from '../sessions/sessions.service';
import { RequestCodeDto, SignInDto } from './dto/sign-in.dto';
import { JsonFromConsoleGuard } from './json-from-console.guard';
import { SignInService } from './sign-in.service';

/** Signing in and out of the console (the browser's session; no API key ever reaches the page). */
@ApiExcludeController()
@Public()
@Controller('api/session')
export class SessionController {
  constructor(
    private readonly signIn: SignInService,
    private readonly sessions: SessionsService,
    private readonly access: AccessCacheService,
    private readonly keys: CallKeysService,
    private readonly config: ConsoleConfig,
  ) {}

  @Post('code')
  @HttpCode(202)
  @UseGuards(JsonFromConsoleGuard)
  async requestCode(@Body() dto: RequestCodeDto, @Req() req: FastifyRequest) {
    await this.signIn.requestCode(dto.email, dto.tenant_id, req.ip);
    return { message: 'If this e-mail belongs to a user of an account, a code is on its way' };
  }

  @Post()
  @UseGuards(JsonFromConsoleGuard)
  async create(@Body() dto: SignInDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const { token, session } = await this.signIn.signIn(dto.email, dto.code, dto.tenant_id);
    setSessionCookie(reply, this.config, token, session.expiresAt);
    const open = await this.sessions.resolve(token);
    return this.present(open!);
  }

  @Get()
  @NoRateLimit()
  @UseGuards(SessionGuard)
  read(@CurrentSession() open: OpenSession) {
    return this.present(open);
  }

  /** Signs this browser out. */
  @Delete()
  @UseGuards(SessionGuard)
  async end(@CurrentSession() open: OpenSession, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.sessions.end(open.session);
    this.keys.forget(open.session);
    clearSessionCookie(reply, this.config);
    return { message: 'Signed out' };
  }

  /** Signs the user out of every browser (every open session of hers ends at once, on every replica). */
  @Post('end-all')
  @UseGuards(SessionGuard)
  async endAll(@CurrentSession() open: OpenSession, @Res({ passthrough: true }) reply: FastifyReply) {
    const ended = await this.sessions.endAll(open.session.tenantId, open.session.userId);
    this.keys.forget(open.session);
    clearSessionCookie(reply, this.config);
    return { message: 'Signed out everywhere', sessions_ended: ended };
  }

  private present({ session, user }: OpenSession) {
    const role = this.access.role(user.tenant_id, user.role);
    return {
      user_id: user.user_id,
      tenant_id: user.tenant_id,
      username: user.username,
      role: user.role,
      permissions: role?.permissions ?? [],
      csrf_token: session.csrfToken,
      expires_at: session.expiresAt.toISOString(),
      idle_expires_at: this.sessions.idleExpiry(session).toISOString(),
    };
  }
}
