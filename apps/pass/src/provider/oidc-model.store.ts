import { preparedQuery, rawQuery } from '@kyc/platform';
import type { AdapterPayload } from 'oidc-provider';
import { DataSource } from 'typeorm';

import * as SQL from './oidc-model.sql';
import type { ModelRow, TokenRequestUnit } from './token-request-unit';

/** A stored model row as the adapter reads it. */
export interface OidcRow {
  payload: AdapterPayload;
  consumed_at: Date | null;
  expires_at: Date | null;
}

/** A code or refresh token read with its grant and whether its account exists. */
export interface OidcRowWithGrant extends OidcRow {
  grant_payload: AdapterPayload | null;
  grant_consumed_at: Date | null;
  grant_expires_at: Date | null;
  account_exists: boolean;
}

/**
 * The only reader and writer of pass.oidc_models (oidc-provider's storage, CIBA polls). Every token request
 * runs several of these primary-key statements: they go as named prepared statements (parsed once per
 * connection, without TypeORM's query runner per call).
 */
export class OidcModelStore {
  constructor(private readonly dataSource: DataSource) {}

  private run<T>(name: string, text: string, values: unknown[]): Promise<T[]> {
    return preparedQuery<T>(this.dataSource, `pass_oidc_${name}`, text, values);
  }

  async upsert(model: string, id: string, payload: AdapterPayload, expiresAt: Date | null): Promise<void> {
    await this.run('upsert', SQL.UPSERT, [
      model,
      id,
      payload,
      payload.grantId ?? null,
      payload.uid ?? null,
      payload.userCode ?? null,
      expiresAt,
    ]);
  }

  async find(model: string, id: string): Promise<OidcRow | undefined> {
    return (await this.run<OidcRow>('find', SQL.FIND, [model, id]))[0];
  }

  async findByUid(model: string, uid: string): Promise<OidcRow | undefined> {
    return (await this.run<OidcRow>('find_by_uid', SQL.FIND_BY_UID, [model, uid]))[0];
  }

  async findByUserCode(model: string, userCode: string): Promise<OidcRow | undefined> {
    return (await this.run<OidcRow>('find_by_user_code', SQL.FIND_BY_USER_CODE, [model, userCode]))[0];
  }

  async findWithGrant(model: string, id: string): Promise<OidcRowWithGrant | undefined> {
    return (await this.run<OidcRowWithGrant>('find_with_grant', SQL.FIND_WITH_GRANT, [model, id]))[0];
  }

  /** Marks the row used; false when it was already used (or is gone). */
  async consume(model: string, id: string, at: Date): Promise<boolean> {
    return (await this.run('consume', SQL.CONSUME, [model, id, at])).length > 0;
  }

  async destroy(model: string, id: string): Promise<void> {
    await this.run('destroy', SQL.DESTROY, [model, id]);
  }

  /** Deletes a whole token family (every model sharing the grant). */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.run('revoke_grant', SQL.REVOKE_GRANT, [grantId]);
  }

  /**
   * Writes what a unit held back in one statement: the consumption and, when `withWrites` (the answer is a
   * success), the saved tokens. False when the code or token had already been consumed (nothing written).
   */
  async commitTokenRequest(unit: TokenRequestUnit, withWrites: boolean): Promise<boolean> {
    const rows = JSON.stringify(
      (withWrites ? unit.writes : []).map((r: ModelRow) => ({
        model: r.model,
        id: r.id,
        payload: r.payload,
        expires_at: r.expiresAt?.toISOString() ?? null,
      })),
    );
    const hasRows = withWrites && unit.writes.length > 0;
    const { consume } = unit;
    unit.consume = undefined;
    unit.writes.length = 0;
    if (!consume) {
      if (hasRows) await this.run('unit_write', SQL.WRITE_ROWS, [rows]);
      return true;
    }
    const result = await this.run<{ consumed: number }>('unit_consume_write', SQL.CONSUME_AND_WRITE, [
      consume.model,
      consume.id,
      consume.at,
      rows,
    ]);
    return result[0].consumed === 1;
  }

  /** Whether the pass user `id` exists (ids are UUIDs: anything else does not). */
  async accountExists(id: string): Promise<boolean> {
    return (
      /^[0-9a-f-]{36}$/.test(id) &&
      (await preparedQuery(this.dataSource, 'pass_account_exists', SQL.ACCOUNT_EXISTS, [id])).length === 1
    );
  }

  /** True when the CIBA request is unknown (never issued, expired and purged, revoked) or already redeemed. */
  async cibaRequestGone(authReqId: string): Promise<boolean> {
    const rows = await rawQuery<{ consumed_at: Date | null }>(this.dataSource, SQL.CIBA_REQUEST, [authReqId]);
    return rows.length === 0 || rows[0].consumed_at !== null;
  }

  /** Records a CIBA poll; false when the previous poll of the same auth_req_id was less than `intervalMs` ago. */
  async pollAllowed(authReqId: string, now: Date, intervalMs: number): Promise<boolean> {
    const at = now.getTime();
    const rows = await rawQuery(this.dataSource, SQL.CIBA_POLL, [
      authReqId.slice(0, 200),
      { at },
      new Date(at + 3600_000),
      at - intervalMs,
    ]);
    return rows.length > 0;
  }
}
