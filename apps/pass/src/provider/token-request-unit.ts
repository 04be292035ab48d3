import { AsyncLocalStorage } from 'node:async_hooks';

import type { AdapterPayload } from 'oidc-provider';

/** A row oidc-provider saves (`upsert`), in oidc_models' columns. */
export interface ModelRow {
  model: string;
  id: string;
  payload: AdapterPayload;
  expiresAt: Date | null;
}

/**
 * The unit of work of one authorization_code or refresh_token grant at the token endpoint. oidc-provider runs
 * such a grant as a chain of adapter calls, each a round trip of its own: find the code or token, find its
 * grant, find the account, consume, save the access token, save the refresh token. Within a unit:
 * - the code or token is read with its grant and whether its account exists (one statement), and the grant
 *   and account lookups that follow are answered from what was read;
 * - the consumption and the new tokens are held back and written by `OidcModelStore.commitTokenRequest` in one statement
 *   once the answer is ready and before it is sent: the new tokens are stored only if this request consumed
 *   the code or token (a concurrent redemption, or any failure, leaves nothing behind and the answer becomes
 *   `invalid_grant`), so a token in an answer is always stored and of two concurrent redemptions one wins.
 */
export class TokenRequestUnit {
  /** Grant rows read with the request's code or token, by grant id (undefined: missing or expired). */
  readonly grants = new Map<string, AdapterPayload | undefined>();
  /** Whether the account a code or token names exists, read with it. */
  readonly accounts = new Map<string, boolean>();
  /** The single-use code or token to mark used (a conditional update at commit). */
  consume?: { model: string; id: string; at: Date };
  /** Access and refresh tokens saved by the grant, written at commit. */
  readonly writes: ModelRow[] = [];

  get pending(): boolean {
    return this.consume !== undefined || this.writes.length > 0;
  }
}

/** The unit of the token request being served (set by the token endpoint middleware around the grant). */
export const tokenRequestUnit = new AsyncLocalStorage<TokenRequestUnit>();

/** Models whose saves a unit holds back (the tokens a grant issues). */
export const DEFERRED_SAVES = new Set(['AccessToken', 'RefreshToken']);
/** Models whose consumption a unit holds back (what a grant redeems). */
export const DEFERRED_CONSUMES = new Set(['AuthorizationCode', 'RefreshToken']);
