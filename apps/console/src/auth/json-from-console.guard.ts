import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

import { ConsoleConfig } from '../config/console.config';
import { crossOrigin } from '../sessions/session.guard';
import { ConsoleErrorCode, ConsoleException } from '../shared/console.exception';

/**
 * The sign-in requests made before there is a session (so no CSRF token yet): JSON bodies only (a
 * cross-site HTML form cannot send one without a CORS preflight the console never grants) and no
 * foreign Origin: another site cannot sign a browser in to an account of its choosing.
 */
@Injectable()
export class JsonFromConsoleGuard implements CanActivate {
  constructor(private readonly config: ConsoleConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const json = /^application\/json\b/i.test(String(req.headers['content-type'] ?? ''));
    if (!json || crossOrigin(req, this.config))
      throw new ConsoleException(ConsoleErrorCode.CsrfRejected, 'The request did not come from the console page');
    return true;
  }
}
