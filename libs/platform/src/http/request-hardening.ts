import type { Socket } from 'node:net';
import { Transform } from 'node:stream';

import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { AuthGuard } from '../auth/auth.guard';
import { AppException, ValidationFailedException } from '../errors/app.exception';
import { envelope } from '../errors/error-envelope';
import {
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_INPUT_LIMITS,
  InputLimits,
  inspectInput,
  PlatformRouteConfig,
} from './request-limits';

/** 413 in the envelope: a body, an object or a text value beyond the request limits. */
export class PayloadTooLargeException extends AppException {
  constructor(message: string, fields: { field: string; message: string }[] = []) {
    super(413, 'payload_too_large', message, fields);
  }
}

/** Bodies the platform itself parses (Nest's JSON and form parsers); uploads bring their own parsers and limits. */
const PLATFORM_PARSED = /^\s*(application\/json|application\/x-www-form-urlencoded)\b|^\s*$/i;

export interface RequestHardeningOptions {
  /** Bytes of a JSON or form body a route accepts unless it says otherwise with @BodyLimit. */
  bodyLimit?: number;
  /** Checks the API key before the body is read (AuthGuard.checkKey). */
  auth?: Pick<AuthGuard, 'checkKey'>;
}

const routeConfig = (req: FastifyRequest): PlatformRouteConfig =>
  (req.routeOptions?.config ?? {}) as PlatformRouteConfig;

const hasBody = (req: FastifyRequest) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * The request-cost bounds of every service (see request-limits.ts), as Fastify hooks:
 * - onRequest: a request with a body, to a route that is not @Public(), has its API key checked
 *   before a byte of the body is read (401 at once, the connection is closed);
 * - preParsing: JSON and form bodies beyond the route's limit get 413 before they are read
 *   (declared length) or as soon as they pass it (chunked);
 * The parsed input is inspected later, by InputInspectionGuard, after the caller's permissions.
 * Errors raised here reach the global exception filter, so they leave in the envelope.
 */
export function registerRequestHardening(fastify: FastifyInstance, options: RequestHardeningOptions = {}): void {
  const defaultBodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES;

  fastify.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (!options.auth || !req.routeOptions?.url || routeConfig(req).kycPublic || !hasBody(req)) return done();
    options.auth.checkKey(req.headers).then(
      () => done(),
      (err: Error) => {
        void reply.header('connection', 'close');
        done(err);
      },
    );
  });

  fastify.addHook('preParsing', (req, reply, payload, done) => {
    if (!PLATFORM_PARSED.test(String(req.headers['content-type'] ?? ''))) return done(null, payload);
    const limit = routeConfig(req).kycBodyLimit ?? defaultBodyLimit;
    const tooLarge = () => new PayloadTooLargeException(`The request body is larger than ${limit} bytes`);
    const declared = req.headers['content-length'];
    if (declared !== undefined) {
      if (Number(declared) > limit) {
        void reply.header('connection', 'close');
        return done(tooLarge(), undefined);
      }
      return done(null, payload);
    }
    let seen = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        if (seen > limit) return callback(Object.assign(tooLarge(), { statusCode: 413 }));
        callback(null, chunk);
      },
    });
    payload.on('error', (err) => counted.destroy(err));
    done(null, payload.pipe(counted));
  });
}

/**
 * The parsed body, query string and path parameters inspected in one iterative pass (depth, keys,
 * values, text length, NUL and unpaired surrogates): 400 or 413 in the envelope.
 */
export function inspectRequest(req: FastifyRequest, defaultLimits: InputLimits = DEFAULT_INPUT_LIMITS): void {
  const limits = { ...defaultLimits, ...routeConfig(req).kycInputLimits };
  const problem =
    inspectInput(req.params, limits, '') ?? inspectInput(req.query, limits, '') ?? inspectInput(req.body, limits, '');
  if (!problem) return;
  throw problem.status === 413
    ? new PayloadTooLargeException(problem.message, problem.fields)
    : new ValidationFailedException(problem.fields, problem.message);
}

/**
 * Global guard, registered after AuthGuard: inspects the request's input (inspectRequest) once the
 * caller is known to be allowed, so a caller without the permission gets 403 before any answer
 * about its input (permission before input), and before any pipe or handler sees the input.
 */
@Injectable()
export class InputInspectionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    inspectRequest(context.switchToHttp().getRequest<FastifyRequest>());
    return true;
  }
}

const REASONS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers (or its URL) are too large'],
  HPE_URI_TOO_LONG: [414, 'The request URL is too long'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive'],
};

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses (headers too large, a malformed
 * request line) is answered in the envelope too, then the connection is closed.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] = REASONS[err.code ?? ''] ?? [400, 'The request is malformed'];
  const body = JSON.stringify(envelope(status, message, status === 400 ? 'bad_request' : undefined));
  socket.end(
    `HTTP/1.1 ${status} ${envelope(status, '').status}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** Fastify's `frameworkErrors`: a malformed URL (bad percent-encoding) or content type, in the envelope. */
export function frameworkErrors(error: Error & { statusCode?: number }, _req: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  void reply
    .status(status)
    .header('content-type', 'application/json; charset=utf-8')
    .send(envelope(status, error.message.replace(/^FST_[A-Z_]+:\s*/, ''), 'bad_request'));
}
