import { timingSafeEqual } from 'node:crypto';

import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

import { ConsoleConfig } from '../config/console.config';
import { ConsoleErrorCode, ConsoleException } from '../shared/console.exception';
import { readSessionCookie } from './session-cookie';
import { OpenSession, SessionsService } from './sessions.service';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SESSION = Symbol('console-session');

type SessionRequest = FastifyRequest & { [SESSION]?: OpenSession };

/**
 * A request from someone outside the console's origin: an Origin (or, without it, a Referer) of another
 * origin. Browsers send Origin on every cross-origin request and on same-origin POSTs.
 */
export function crossOrigin(req: FastifyRequest, config: ConsoleConfig): boolean {
  const given = req.headers.origin ?? req.headers.referer;
  if (typeof given !== 'string' || !given) return false;
  let origin: string;
  try {
    origin = new URL(given).origin;
  } catch {
    return true;
  }
  const own = new Set([new URL(config.publicUrl).origin]);
  if (req.headers.host) own.add(`${req.protocol}://${req.headers.host}`);
  return !own.has(origin);
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Every console route behind sign-in: the session of the cookie (401 `signed_out` without one);
 * a state-changing request also needs the session's CSRF token in X-CSRF-Token and no foreign
 * Origin (403 `csrf_rejected`), on top of the SameSite=Strict cookie.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionsService,
    private readonly config: ConsoleConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<SessionRequest>();
    const open = await this.sessions.resolve(readSessionCookie(req, this.config));
    if (!open) throw new ConsoleException(ConsoleErrorCode.SignedOut, 'You are signed out; sign in again');
    if (!SAFE_METHODS.has(req.method)) {
      const given = req.headers['x-csrf-token'];
      if (typeof given !== 'string' || !same(given, open.session.csrfToken) || crossOrigin(req, this.config))
        throw new ConsoleException(ConsoleErrorCode.CsrfRejected, 'The request did not come from the console page');
    }
    req[SESSION] = open;
    return true;
  }
}

/** The open session the SessionGuard found. */
export const CurrentSession = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): OpenSession => ctx.switchToHttp().getRequest<SessionRequest>()[SESSION]!,
);
