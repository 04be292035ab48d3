import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

import { Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { CONSOLE_SERVICES, ConsoleConfig, ConsoleService } from '../config/console.config';
import { OpenSession } from '../sessions/sessions.service';
import { ConsoleErrorCode, ConsoleException } from '../shared/console.exception';
import { CallKeysService } from './call-keys.service';

/** Request headers passed on to a service (never the cookie). */
const FORWARDED_REQUEST = ['accept', 'content-type', 'idempotency-key', 'accept-language', 'last-event-id'];
/** Response headers passed back to the page. */
const FORWARDED_RESPONSE = ['content-type', 'content-disposition', 'retry-after', 'x-request-id'];

const isService = (name: string): name is ConsoleService => Object.hasOwn(CONSOLE_SERVICES, name);

/**
 * Forwards one call of the page to a service's public API under /v1 with the user's key (the
 * platform administration routes, /v1/admin, are never reachable from the console). A service
 * that does not answer becomes 502 `service_unreachable` in the envelope, so the page offers a retry.
 */
@Injectable()
export class ServiceCallsService {
  private readonly logger = new Logger('service-calls');

  constructor(
    private readonly config: ConsoleConfig,
    private readonly keys: CallKeysService,
  ) {}

  async forward(service: string, req: FastifyRequest, reply: FastifyReply, open: OpenSession): Promise<void> {
    const prefix = `/api/services/${service}/`;
    const rest = req.url.slice(prefix.length);
    if (!isService(service) || !req.url.startsWith(prefix) || !/^v1\//.test(rest) || /^v1\/admin(\/|\?|$)/.test(rest))
      throw new ConsoleException(ConsoleErrorCode.UnknownService, `No such console route: ${req.url.split('?')[0]}`);
    const headers: Record<string, string> = {
      'service-api-key': await this.keys.keyFor(open.session),
      'x-request-id': String(req.id),
    };
    for (const name of FORWARDED_REQUEST) {
      const value: unknown = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    let body: string | Buffer | undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined && req.body !== null) {
      if (Buffer.isBuffer(req.body)) {
        // A file (a batch's xlsx, parsed as raw bytes on this route only): passed on as it came.
        body = req.body;
      } else {
        body = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
        headers['content-type'] = 'application/json';
      }
    }
    // A push channel (server-sent events) lives until either side ends it; any other call has 30 s.
    const stream = req.method === 'GET' && /text\/event-stream/.test(req.headers.accept ?? '');
    const closed = new AbortController();
    let res: Response;
    try {
      res = await fetch(`${this.config.serviceUrl(service)}/${rest}`, {
        method: req.method,
        headers,
        body,
        signal: stream ? closed.signal : AbortSignal.timeout(30_000),
      });
    } catch (err: unknown) {
      this.logger.warn({ err: err as Error, service }, 'service call failed');
      throw new ConsoleException(
        ConsoleErrorCode.ServiceUnreachable,
        `The ${service} service did not answer; try again`,
      );
    }
    if (stream && res.ok && res.body && res.headers.get('content-type')?.startsWith('text/event-stream'))
      return this.pipeEvents(req, reply, res, closed);
    void reply.status(res.status);
    for (const name of FORWARDED_RESPONSE) {
      const value = res.headers.get(name);
      if (value) void reply.header(name, value);
    }
    void reply.header('cache-control', 'no-store');
    await reply.send(Buffer.from(await res.arrayBuffer()));
  }

  /**
   * Passes a service's event stream to the page as it comes (no buffering, no timeout): it ends when
   * the service ends it (the page's EventSource reconnects with Last-Event-ID through a new call,
   * with a fresh key) or when the page goes away (the service's stream is aborted).
   */
  private pipeEvents(req: FastifyRequest, reply: FastifyReply, res: Response, closed: AbortController): void {
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': res.headers.get('content-type')!,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-accel-buffering': 'no',
      'x-request-id': String(req.id),
    });
    const body = Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>);
    const stop = () => {
      closed.abort();
      body.destroy();
      if (!out.writableEnded) out.end();
    };
    body.on('error', stop);
    body.on('end', stop);
    req.raw.on('close', stop);
    out.on('close', stop);
    body.pipe(out, { end: false });
  }
}
