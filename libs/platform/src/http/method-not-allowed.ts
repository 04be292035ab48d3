import type { FastifyInstance, FastifyReply } from 'fastify';

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
 * (RFC 9110 section 15.5.6) instead of the 404 of an unknown path. A path that is a route of its own
 * (`/v1/msg/outbounds/send`) answers only that route's methods, as its document says: another method
 * is a 405 naming them, never the route of a parameter that happens to match it
 * (`/v1/msg/outbounds/:outbound_id`, with `send` as the id). The service's routes are collected as
 * they are registered (`onRoute`), so call this before they are (before `app.init()`).
 */
export function registerMethodNotAllowed(fastify: FastifyInstance): void {
  const routes: { method: string; pattern: RegExp }[] = [];
  /** The methods of each path without parameters or wildcard. */
  const literal = new Map<string, Set<string>>();
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (!METHODS.includes(method)) continue;
      routes.push({ method, pattern: routePattern(route.url) });
      if (!/[:*]/.test(route.url)) literal.set(route.url, (literal.get(route.url) ?? new Set()).add(method));
    }
  });
  const refuse = (method: string, allow: string[], reply: FastifyReply, done: (err?: Error) => void) => {
    void reply.header('allow', allow.join(', '));
    done(new MethodNotAllowedException(method, allow));
  };
  fastify.addHook('onRequest', (req, reply, done) => {
    const matched = req.routeOptions?.url;
    // a route of this very path (or a wildcard route, such as CORS preflight's) answers
    if (matched && !matched.includes(':')) return done();
    const path = req.url.split('?')[0];
    const own = literal.get(path);
    if (own)
      return refuse(
        req.method,
        METHODS.filter((m) => own.has(m)),
        reply,
        done,
      );
    if (matched) return done();
    const allow = METHODS.filter((m) => m !== req.method && routes.some((r) => r.method === m && r.pattern.test(path)));
    if (!allow.length) return done();
    refuse(req.method, allow, reply, done);
  });
}
