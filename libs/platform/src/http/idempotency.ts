import { createHash } from 'node:crypto';

import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';

import { CALLER, Caller } from '../auth/caller';
import { PlatformErrorCode, PlatformException, ValidationFailedException } from '../errors/app.exception';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const TTL = `interval '24 hours'`;
/** Where the guard leaves the key of a request whose response must be stored. */
const PENDING = Symbol('idempotency');

interface PendingKey {
  tenant: string;
  key: string;
}

/** Thrown to answer with a stored response; the exception filter sends it verbatim. */
export class IdempotentReplay {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/**
 * Every POST honours an optional Idempotency-Key: the first request stores its status and body
 * (4xx included; a 5xx frees the key so the client can retry); the same key with the same body
 * within 24 h replays them without doing the work again; the same key with another body gets 422.
 *
 * Two halves: IdempotencyGuard (a global guard after authentication, so the key is the tenant's)
 * claims the key before the handler runs, and storeResponse() (a Fastify onSend hook, see
 * bootstrap.ts) records whatever answer leaves, success or error envelope. Requests without the
 * header pay one header lookup: no interceptor wraps every handler.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly dataSource: DataSource) {}

  /** Claims the key, or throws: a replay of the stored answer, 422 for another body, 409 while the first is running. */
  async begin(tenant: string, key: string, hash: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2 AND created_at < now() - ${TTL}`,
      [tenant, key],
    );
    const inserted = await this.dataSource.query(
      `INSERT INTO idempotency_keys (tenant_id, key, request_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING key`,
      [tenant, key, hash],
    );
    if (inserted.length) return;
    const [row] = await this.dataSource.query(
      `SELECT request_hash, status_code, response FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`,
      [tenant, key],
    );
    if (!row) return this.begin(tenant, key, hash);
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
    throw new IdempotentReplay(row.status_code, row.response);
  }

  /** onSend hook: stores the answer of a request that claimed a key (or frees the key after a 5xx). */
  async storeResponse(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
    const pending = (req as unknown as Record<symbol, PendingKey | undefined>)[PENDING];
    if (!pending) return;
    (req as unknown as Record<symbol, PendingKey | undefined>)[PENDING] = undefined;
    const json =
      typeof payload === 'string' && String(reply.getHeader('content-type') ?? '').includes('json') ? payload : null;
    if (reply.statusCode >= 500 || json === null) {
      await this.dataSource.query(`DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`, [
        pending.tenant,
        pending.key,
      ]);
      return;
    }
    await this.dataSource.query(
      `UPDATE idempotency_keys SET status_code = $3, response = $4::jsonb WHERE tenant_id = $1 AND key = $2`,
      [pending.tenant, pending.key, reply.statusCode, json],
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
  constructor(private readonly idempotency: IdempotencyService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<FastifyRequest & { [CALLER]?: Caller }>();
    if (req.method !== 'POST') return true;
    const key = req.headers[IDEMPOTENCY_HEADER];
    if (typeof key !== 'string' || key === '') return true;
    if (key.length > 255)
      throw new ValidationFailedException([
        { field: 'Idempotency-Key', message: 'Idempotency-Key must be at most 255 characters' },
      ]);
    const tenant = req[CALLER]?.tenantId ?? '_platform';
    const hash = createHash('sha256')
      .update(`${req.method} ${String(req.url).split('?')[0]}\n${canonicalJson(req.body ?? null)}`)
      .digest('hex');
    await this.idempotency.begin(tenant, key, hash);
    IdempotencyService.markPending(req, { tenant, key });
    return true;
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
