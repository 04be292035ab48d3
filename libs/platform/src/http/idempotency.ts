import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

import {
  ArgumentMetadata,
  CanActivate,
  ExecutionContext,
  Injectable,
  PipeTransform,
  SetMetadata,
} from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';

import { PUBLIC_ROUTE } from '../auth/auth.decorators';
import { CALLER, Caller } from '../auth/caller';
import { PlatformErrorCode, PlatformException, ValidationFailedException } from '../errors/app.exception';
import { Clock } from '../time/clock';
import { createValidationPipe } from '../validation/validation.pipe';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const TTL = `interval '24 hours'`;
/**
 * How long a claim in progress holds its key. A process that crashed mid-request never stores an
 * answer nor frees the key: once the lease has passed, the next request with the key takes the
 * claim over (requests are bounded well below it: HTTP timeouts, body and input limits).
 */
export const IDEMPOTENCY_LEASE_SECONDS = 60;

/** A stored key that no longer holds: its answer is older than the TTL, or its claim was abandoned (lease passed). */
const freeSql = (table = '') =>
  `(${table}created_at < now() - ${TTL}
   OR (${table}status_code IS NULL AND ${table}created_at < now() - make_interval(secs => ${IDEMPOTENCY_LEASE_SECONDS})))`;

/**
 * Refusals a handler makes before doing any work (its own input checks, beyond the DTO's): the key
 * is freed, not stored, so the client can retry with a corrected request.
 */
const REFUSED_BEFORE_WORK = new Set(['validation_failed', 'bad_request', 'invalid_value', 'payload_too_large']);
const freesKey = (status: number, errorCode: unknown) =>
  status >= 500 ||
  status === 401 ||
  status === 403 ||
  status === 413 ||
  status === 415 ||
  (status === 400 && typeof errorCode === 'string' && REFUSED_BEFORE_WORK.has(errorCode));

/**
 * Stored keys and answers. The key is stored as its SHA-256 (the table holds no usable key) and
 * the answer sealed (AES-256-GCM) under a key derived from the Idempotency-Key itself, so what
 * only the client knows opens it: a replay of `POST /v1/api-keys` or a signing-secret rotation
 * keeps no secret in clear in the table for its 24 h.
 */
export const storedKey = (key: string) => createHash('sha256').update(`idempotency-key\n${key}`).digest('hex');

const sealingKey = (tenant: string, key: string) =>
  Buffer.from(hkdfSync('sha256', key, tenant, 'kyc-idempotency-replay-v1', 32));

export function sealReplay(tenant: string, key: string, json: string): { sealed: string } {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(tenant, key), iv);
  const data = Buffer.concat([cipher.update(json, 'utf8'), cipher.final()]);
  return {
    sealed: ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.'),
  };
}

export function openReplay(tenant: string, key: string, stored: unknown): unknown {
  const sealed = (stored as { sealed?: unknown } | null)?.sealed;
  if (typeof sealed !== 'string') return stored;
  const [, iv, tag, data] = sealed.split('.');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(tenant, key), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return JSON.parse(
    Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8'),
  );
}
const BODY_VALIDATOR = 'platform:idempotency-body-validator';

/**
 * For a route whose body is validated by its service rather than by a DTO (checks' create, shared
 * with batch rows): the service's own pure validation, run by IdempotencyGuard before it claims a
 * key, so such a route too claims only valid requests. It throws the 400 the service would
 * (`now` from the platform's Clock).
 */
export const ValidatesBody = (validate: BodyValidator) => SetMetadata(BODY_VALIDATOR, validate);

export type BodyValidator = (body: unknown, now: Date) => void;

/** Where the guard leaves the key of a request whose response must be stored. */
const PENDING = Symbol('idempotency');

interface PendingKey {
  tenant: string;
  /** The Idempotency-Key as the client sent it (seals the stored answer; only its hash is stored). */
  key: string;
}

/** Thrown to answer with a stored response; the exception filter sends it verbatim. */
export class IdempotentReplay extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super('idempotent replay');
  }
}

/**
 * Every POST honours an optional Idempotency-Key: the first request stores its status and body
 * (sealed, see sealReplay; 4xx included, except refusals before any work was done, which free the
 * key like a 5xx so the client can retry with a corrected request); the same key with the same body
 * within 24 h replays them without doing the work again; the same key with another body gets 422.
 *
 * Two halves: IdempotencyGuard (a global guard after authentication, so the key is the tenant's)
 * validates the request's body and query against the route's DTOs and only then claims the key, so a
 * request refused by validation never holds or consumes a key, and storeResponse() (a Fastify onSend hook, see
 * bootstrap.ts) records whatever answer leaves, success or error envelope. Requests without the
 * header pay one header lookup: no interceptor wraps every handler.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Claims the key, or throws: a replay of the stored answer, 422 for another body, 409 while the
   * first is running (within its lease; an abandoned claim is taken over). A key that is free is
   * claimed only once `validate` has passed, so a request refused for its input never holds a key.
   */
  async begin(
    tenant: string,
    key: string,
    hash: string,
    validate: () => Promise<void> = async () => {},
  ): Promise<void> {
    const id = storedKey(key);
    const [row] = await this.dataSource.query<
      { request_hash: string; status_code: number | null; response: unknown; free: boolean }[]
    >(
      `SELECT request_hash, status_code, response, ${freeSql()} AS free
         FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`,
      [tenant, id],
    );
    if (row && !row.free) {
      if (row.request_hash !== hash) {
        throw new PlatformException(
          PlatformErrorCode.IdempotencyKeyReused,
          'This Idempotency-Key was already used with a different request body',
        );
      }
      if (row.status_code === null)
        throw new PlatformException(
          PlatformErrorCode.IdempotencyKeyInProgress,
          'A request with this Idempotency-Key is still in progress',
        );
      throw new IdempotentReplay(row.status_code, openReplay(tenant, key, row.response));
    }
    await validate();
    const claimed: unknown[] = await this.dataSource.query(
      `INSERT INTO idempotency_keys (tenant_id, key, request_hash) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, created_at = now(), status_code = NULL, response = NULL
         WHERE ${freeSql('idempotency_keys.')}
       RETURNING key`,
      [tenant, id, hash],
    );
    // Another request took the key between the read and the claim: answer as its claim says.
    if (!claimed.length) return this.begin(tenant, key, hash);
  }

  /** onSend hook: stores the answer of a request that claimed a key (or frees the key after a 5xx). */
  async storeResponse(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
    const pending = (req as unknown as Record<symbol, PendingKey | undefined>)[PENDING];
    if (!pending) return;
    (req as unknown as Record<symbol, PendingKey | undefined>)[PENDING] = undefined;
    const json =
      typeof payload === 'string' && String(reply.getHeader('content-type') ?? '').includes('json') ? payload : null;
    let errorCode: unknown;
    if (json !== null && reply.statusCode >= 400) {
      try {
        errorCode = (JSON.parse(json) as { error_code?: unknown })?.error_code;
      } catch {
        /* stored as it is */
      }
    }
    const id = storedKey(pending.key);
    if (json === null || freesKey(reply.statusCode, errorCode)) {
      await this.dataSource.query(`DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`, [
        pending.tenant,
        id,
      ]);
      return;
    }
    await this.dataSource.query(
      `UPDATE idempotency_keys SET status_code = $3, response = $4::jsonb WHERE tenant_id = $1 AND key = $2`,
      [pending.tenant, id, reply.statusCode, JSON.stringify(sealReplay(pending.tenant, pending.key, json))],
    );
  }

  static isPending(req: object): boolean {
    return (req as Record<symbol, PendingKey | undefined>)[PENDING] !== undefined;
  }

  static markPending(req: object, pending: PendingKey): void {
    (req as Record<symbol, PendingKey>)[PENDING] = pending;
  }
}

/** Global guard, registered after AuthGuard: claims the Idempotency-Key of a POST (see IdempotencyService). */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<FastifyRequest & { [CALLER]?: Caller }>();
    if (req.method !== 'POST') return true;
    // Routes without an API key (OAuth endpoints, webhooks, signed links, end-user pages) have no
    // tenant to scope a key to, and their own replay rules (single-use codes, signatures): the
    // header is ignored there (docs/api.md, Idempotency).
    if (isPublicRoute(context)) return true;
    const key = req.headers[IDEMPOTENCY_HEADER];
    if (typeof key !== 'string' || key === '') return true;
    if (key.length > 255)
      throw new ValidationFailedException([
        { field: 'Idempotency-Key', message: 'Idempotency-Key must be at most 255 characters' },
      ]);
    // A platform operator's token has no tenant: its keys are the operators' own.
    const tenant = req[CALLER]?.tenantId ?? '_platform';
    const hash = createHash('sha256')
      .update(`${req.method} ${String(req.url).split('?')[0]}\n${canonicalJson(req.body ?? null)}`)
      .digest('hex');
    await this.idempotency.begin(tenant, key, hash, () => this.validateInputs(context, req));
    IdempotencyService.markPending(req, { tenant, key });
    return true;
  }

  /**
   * Runs the platform's validation pipe over the route's `@Body()` and `@Query()` DTOs, as the
   * handler's own pipes will, and the route's `@ValidatesBody` check: an invalid request is
   * refused (400) before its key is claimed.
   */
  private async validateInputs(context: ExecutionContext, req: FastifyRequest): Promise<void> {
    for (const { metadata, value } of routeInputs(context, req)) await this.pipe.transform(value, metadata);
    const validateBody = Reflect.getMetadata(BODY_VALIDATOR, context.getHandler()) as BodyValidator | undefined;
    validateBody?.(req.body, this.clock.now());
  }

  private readonly pipe: PipeTransform = createValidationPipe();
}

const isPublicRoute = (context: ExecutionContext): boolean =>
  [context.getHandler(), context.getClass()].some((target) => Reflect.getMetadata(PUBLIC_ROUTE, target) === true);

type RouteArg = { index: number; data?: string };
const INPUT_TYPES = new Map<RouteParamtypes, ArgumentMetadata['type']>([
  [RouteParamtypes.BODY, 'body'],
  [RouteParamtypes.QUERY, 'query'],
]);

/** The body and query arguments a route declares, each with its DTO class and the value it will receive. */
function* routeInputs(
  context: ExecutionContext,
  req: FastifyRequest,
): Generator<{ metadata: ArgumentMetadata; value: unknown }> {
  const controller = context.getClass();
  const handler = context.getHandler();
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {}) as Record<string, RouteArg>;
  const paramTypes = (Reflect.getMetadata('design:paramtypes', controller.prototype as object, handler.name) ??
    []) as unknown[];
  for (const [key, arg] of Object.entries(args)) {
    const type = INPUT_TYPES.get(Number(key.split(':')[0]));
    const metatype = paramTypes[arg.index];
    if (!type || typeof metatype !== 'function' || metatype === Object) continue;
    const source = (type === 'body' ? req.body : req.query) as Record<string, unknown> | undefined;
    const value = arg.data ? source?.[arg.data] : source;
    yield { metadata: { type, metatype: metatype as ArgumentMetadata['metatype'], data: arg.data }, value };
  }
}

/** JSON with sorted keys, so the same body in another field order is the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
