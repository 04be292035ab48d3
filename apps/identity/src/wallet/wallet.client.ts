import { Injectable } from '@nestjs/common';

import { IdentityConfig } from '../config/identity.config';

/** One validation written to the wallet (the pass service's POST /v1/oauth2/validations item). */
export interface WalletValidation {
  type: 'document';
  resource_id: string;
  verified: boolean;
  process_id: string;
  document: { document_number: string; document_type: string; country?: string };
}

/** A refusal of the wallet (4xx): the code is bad, expired or already used, or the write was refused. */
export class WalletRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`the wallet refused: ${status} ${JSON.stringify(body)}`);
  }
}

/** The user's wallet: the platform's identity provider (pass). */
export abstract class WalletClient {
  abstract readonly configured: boolean;
  /** Exchanges the authorization code for an access token and writes the validations with it. */
  abstract feed(code: string, validations: WalletValidation[]): Promise<{ written: number }>;
}

/**
 * The pass service as an OAuth client of it (IDENTITY_PASS_CLIENT_ID/SECRET, client_secret_post):
 * the code is exchanged at /v1/oauth2/token, then the validations are written at
 * /v1/oauth2/validations with the access token (scope validations:write). Each item carries a
 * process_id, so a replay writes nothing twice.
 */
@Injectable()
export class PassWalletClient extends WalletClient {
  constructor(private readonly config: IdentityConfig) {
    super();
  }

  get configured(): boolean {
    return Boolean(this.config.IDENTITY_PASS_URL && this.config.IDENTITY_PASS_CLIENT_ID);
  }

  async feed(code: string, validations: WalletValidation[]): Promise<{ written: number }> {
    const base = this.config.IDENTITY_PASS_URL!.replace(/\/$/, '');
    const token = await this.call(`${base}/v1/oauth2/token`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: this.config.IDENTITY_PASS_REDIRECT_URI ?? '',
        client_id: this.config.IDENTITY_PASS_CLIENT_ID!,
        client_secret: this.config.IDENTITY_PASS_CLIENT_SECRET ?? '',
      }).toString(),
    });
    const accessToken = (token as { access_token?: string }).access_token;
    if (!accessToken) throw new Error('the wallet answered no access_token');
    if (!validations.length) return { written: 0 };
    const written = await this.call(`${base}/v1/oauth2/validations`, {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ validations }),
    });
    return { written: ((written as { validations?: unknown[] }).validations ?? []).length };
  }

  private async call(url: string, init: { headers: Record<string, string>; body: string }): Promise<unknown> {
    const res = await fetch(url, { method: 'POST', ...init, signal: AbortSignal.timeout(10_000) });
    const json = (await res.json().catch(() => null)) as unknown;
    if (res.status >= 400 && res.status < 500) throw new WalletRefused(res.status, json);
    if (!res.ok) throw new Error(`the wallet answered ${res.status}`);
    return json;
  }
}
