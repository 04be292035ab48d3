import type { FastifyInstance } from 'fastify';

import { AppException } from '../errors/app.exception';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** 405 in the envelope, with the `Allow` header naming the methods the path answers. */
export class MethodNotAllowedException extends AppException {
  constructor(
    method: string,
    readonly allow: string[],
  ) {
    super(405, 'method_not_allowed', `${method} is not allowed here; the path answers ${allow.join(', ')}`);
  }
}

/** A route pattern (`/v1/checks/:check_id`, `/uploads/*`) as a regular expression over a path. */
export function routePattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * A request to a known path with a method the path does not answer gets 405 with `Allow`
 * (RFC 9110 section 15.5.6) instead of the 404 of an unknown path. The service's routes are
 * collected as they are registered (`onRoute`), so call this before they are (before `app.init()`).
 */
export function registerMethodNotAllowed(fastify: FastifyInstance): void {
  const routes: { method: string; pattern: RegExp }[] = [];
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      if (METHODS.includes(method)) routes.push({ method, pattern: routePattern(route.url) });
  });
  fastify.addHook('onRequest', (req, reply, done) => {
    if (req.routeOptions?.url) return done();
    const path = req.url.split('?')[0];
    const allow = METHODS.filter((m) => m !== req.method && routes.some((r) => r.method === m && r.pattern.test(path)));
    if (!allow.length) return done();
    void reply.header('allow', allow.join(', '));
    done(new MethodNotAllowedException(req.method, allow));
  });
}
