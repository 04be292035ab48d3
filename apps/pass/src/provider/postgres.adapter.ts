import { Clock } from '@kyc/platform';
import type { Adapter, AdapterPayload } from 'oidc-provider';

import { OidcModelStore, OidcRow } from './oidc-model.store';
import { DEFERRED_CONSUMES, DEFERRED_SAVES, TokenRequestUnit, tokenRequestUnit } from './token-request-unit';

/** What the adapter needs from the rest of pass. */
export interface PostgresAdapterDeps {
  store: OidcModelStore;
  clock: Clock;
  /**
   * Client metadata of a registered application (the `Client` model is read from the applications table;
   * oidc-provider's clients are cached above the adapter: client-cache.ts).
   */
  findClient(clientId: string): Promise<AdapterPayload | undefined>;
  /** The error a second consumption of a single-use token raises (oidc-provider's InvalidGrant). */
  alreadyConsumed(model: string): Error;
}

/**
 * oidc-provider's storage on Postgres (table pass.oidc_models): every model (Session, Interaction, Grant,
 * AuthorizationCode, AccessToken, RefreshToken, BackchannelAuthenticationRequest...) is one row keyed by
 * (model, id), so nothing is lost on restart and replicas share state. Consumption is an atomic conditional
 * update: of two concurrent redemptions of one code or refresh token exactly one wins.
 */
export function postgresAdapter(deps: PostgresAdapterDeps): new (model: string) => Adapter {
  const { clock, store } = deps;
  const live = (row: OidcRow | undefined): AdapterPayload | undefined => {
    if (!row) return undefined;
    if (row.expires_at && row.expires_at.getTime() <= clock.now().getTime()) return undefined;
    return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
  };

  /** Writes what the unit holds back before a statement that must come after it (order kept). */
  const commitFirst = async (unit: TokenRequestUnit | undefined) => {
    if (!unit?.pending) return;
    const model = unit.consume?.model ?? '';
    if (!(await store.commitTokenRequest(unit, true))) throw deps.alreadyConsumed(model);
  };

  return class PostgresAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(clock.now().getTime() + expiresIn * 1000) : null;
      const unit = tokenRequestUnit.getStore();
      if (unit && DEFERRED_SAVES.has(this.model)) {
        unit.writes.push({ model: this.model, id, payload, expiresAt });
        return;
      }
      await commitFirst(unit);
      await store.upsert(this.model, id, payload, expiresAt);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return deps.findClient(id);
      const unit = tokenRequestUnit.getStore();
      if (unit && this.model === 'Grant' && unit.grants.has(id)) return unit.grants.get(id);
      if (unit && DEFERRED_CONSUMES.has(this.model)) return this.findWithGrant(unit, id);
      return live(await store.find(this.model, id));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return live(await store.findByUid(this.model, uid));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return live(await store.findByUserCode(this.model, userCode));
    }

    /** Marks the token used; a token already used (by a concurrent request) is refused. */
    async consume(id: string): Promise<void> {
      const unit = tokenRequestUnit.getStore();
      if (unit && DEFERRED_CONSUMES.has(this.model) && !unit.consume) {
        unit.consume = { model: this.model, id, at: clock.now() };
        return;
      }
      await commitFirst(unit);
      if (!(await store.consume(this.model, id, clock.now()))) throw deps.alreadyConsumed(this.model);
    }

    async destroy(id: string): Promise<void> {
      await commitFirst(tokenRequestUnit.getStore());
      await store.destroy(this.model, id);
    }

    /** Revokes a whole token family (every model sharing the grant). */
    async revokeByGrantId(grantId: string): Promise<void> {
      await commitFirst(tokenRequestUnit.getStore());
      await store.revokeByGrantId(grantId);
    }

    private async findWithGrant(unit: TokenRequestUnit, id: string): Promise<AdapterPayload | undefined> {
      const row = await store.findWithGrant(this.model, id);
      const payload = live(row);
      if (!row || !payload) return payload;
      if (typeof row.payload.grantId === 'string')
        unit.grants.set(
          row.payload.grantId,
          live(
            row.grant_payload
              ? { payload: row.grant_payload, consumed_at: row.grant_consumed_at, expires_at: row.grant_expires_at }
              : undefined,
          ),
        );
      if (typeof row.payload.accountId === 'string') unit.accounts.set(row.payload.accountId, row.account_exists);
      return payload;
    }
  };
}
