import { createHash } from 'node:crypto';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { catchError, from, map, mergeMap, Observable, throwError } from 'rxjs';
import { DataSource } from 'typeorm';
import { CALLER } from '../auth/caller';
import { PlatformErrorCode, PlatformException, ValidationFailedException } from '../errors/app.exception';
import { toErrorEnvelope } from '../errors/error-envelope';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const TTL = `interval '24 hours'`;

/** Thrown to answer with a stored response; the exception filter sends it verbatim. */
export class IdempotentReplay {
  constructor(readonly status: number, readonly body: unknown) {}
}

/**
 * Every POST honours an optional Idempotency-Key: the first request stores its status and body
 * (4xx included; a 5xx frees the key so the client can retry); the same key with the same body
 * within 24 h replays them without doing the work again; the same key with another body gets 422.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly dataSource: DataSource) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest();
    const key = req.headers[IDEMPOTENCY_HEADER];
    if (req.method !== 'POST' || typeof key !== 'string' || key === '') return next.handle();
    if (key.length > 255) throw new ValidationFailedException([{ field: 'Idempotency-Key', message: 'Idempotency-Key must be at most 255 characters' }]);
    const tenant: string = req[CALLER]?.tenantId ?? '_platform';
    const hash = createHash('sha256')
      .update(`${req.method} ${String(req.url).split('?')[0]}\n${canonicalJson(req.body ?? null)}`)
      .digest('hex');
    const successStatus: number = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) ?? 201;

    return from(this.begin(tenant, key, hash)).pipe(
      mergeMap(() => next.handle()),
      mergeMap((body) => from(this.finish(tenant, key, successStatus, body)).pipe(map(() => body))),
      catchError((err) => {
        if (err instanceof IdempotentReplay || (err instanceof PlatformException && err.errorCode.startsWith('idempotency_'))) return throwError(() => err);
        const env = toErrorEnvelope(err, 'idempotency');
        const done = env.code < 500 ? this.finish(tenant, key, env.code, env) : this.release(tenant, key);
        return from(done).pipe(mergeMap(() => throwError(() => err)));
      }),
    );
  }

  private async begin(tenant: string, key: string, hash: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2 AND created_at < now() - ${TTL}`, [tenant, key]);
    const inserted = await this.dataSource.query(
      `INSERT INTO idempotency_keys (tenant_id, key, request_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING key`,
      [tenant, key, hash],
    );
    if (inserted.length) return;
    const [row] = await this.dataSource.query(`SELECT request_hash, status_code, response FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`, [tenant, key]);
    if (!row) return this.begin(tenant, key, hash);
    if (row.request_hash !== hash) {
      throw new PlatformException(PlatformErrorCode.IdempotencyKeyReused, 'This Idempotency-Key was already used with a different request body');
    }
    if (row.status_code === null) throw new PlatformException(PlatformErrorCode.IdempotencyKeyInProgress, 'A request with this Idempotency-Key is still in progress');
    throw new IdempotentReplay(row.status_code, row.response);
  }

  private async finish(tenant: string, key: string, status: number, body: unknown): Promise<void> {
    await this.dataSource.query(`UPDATE idempotency_keys SET status_code = $3, response = $4::jsonb WHERE tenant_id = $1 AND key = $2`, [
      tenant,
      key,
      status,
      JSON.stringify(body ?? null),
    ]);
  }

  private async release(tenant: string, key: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`, [tenant, key]);
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

