import { createHash } from 'node:crypto';

import { Caller, Clock, SecretSealer } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';

import { ProviderCredentials, ProviderError } from '../provider/messaging-provider';
import { ProviderUnreachableError } from '../provider/provider-http.client';
import { CredentialsErrorCode, CredentialsException } from './credentials.exception';
import { ProviderCredentialEntity } from './provider-credential.entity';
import { ProviderCredentialStore } from './provider-credential.store';
import { SaveProviderCredentialsDto } from './save-provider-credentials.dto';

type Sealed = Omit<ProviderCredentials, 'wabaId'>;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const aad = (tenantId: string, wabaId: string) => `engagement:${tenantId}:${wabaId}`;
/** Credentials kept opened (see CredentialsService.opened). */
const OPENED_MAX = 1_000;

/** A tenant without provider credentials (409). */
export const providerNotConfigured = () =>
  new CredentialsException(
    CredentialsErrorCode.ProviderNotConfigured,
    'no messaging provider account: PUT /v1/msg/provider-credentials first',
  );

/** The tenants' provider credentials, sealed at rest (AES-256-GCM bound to tenant and WABA). */
@Injectable()
export class CredentialsService {
  /**
   * Opened secrets by the sealed text they were opened from (and what it is bound to), so a send
   * does not decrypt and parse them again. An entry never goes stale: saving credentials seals
   * them anew (a new IV, so a new text), and the old text is simply no longer read.
   */
  private readonly openedBySealed = new Map<string, Sealed>();

  constructor(
    private readonly store: ProviderCredentialStore,
    @InjectRepository(ProviderCredentialEntity) private readonly repo: Repository<ProviderCredentialEntity>,
    private readonly cipher: SecretSealer,
    private readonly clock: Clock,
  ) {}

  async save(caller: Caller, dto: SaveProviderCredentialsDto): Promise<ProviderCredentialEntity> {
    const taken = await this.repo.findOneBy({ wabaId: dto.waba_id });
    if (taken && taken.tenantId !== caller.tenantId)
      throw new CredentialsException(
        CredentialsErrorCode.WabaTaken,
        'this WhatsApp Business Account belongs to another account',
        [{ field: 'waba_id', message: 'already linked to another account' }],
      );
    const now = this.clock.now();
    const sealed: Sealed = { accessToken: dto.access_token, appSecret: dto.app_secret, verifyToken: dto.verify_token };
    const entity = this.repo.create({
      tenantId: caller.tenantId,
      wabaId: dto.waba_id,
      sealed: this.cipher.sealJson(sealed, aad(caller.tenantId, dto.waba_id)),
      verifyTokenHash: hashToken(dto.verify_token),
      subscribedAt: taken?.wabaId === dto.waba_id ? taken.subscribedAt : null,
      createdAt: taken?.createdAt ?? now,
      updatedAt: now,
    });
    await this.repo.save(entity);
    return entity;
  }

  async find(tenantId: string): Promise<ProviderCredentialEntity | null> {
    return this.repo.findOneBy({ tenantId });
  }

  /** The tenant's opened credentials; 409 when it has none. */
  async open(tenantId: string): Promise<ProviderCredentials> {
    const row = await this.repo.findOneBy({ tenantId });
    if (!row) throw providerNotConfigured();
    return this.opened(row);
  }

  /** The account of a WABA; pass the caller's transaction manager to read on its connection. */
  async byWaba(
    wabaId: string,
    m?: EntityManager,
  ): Promise<{ tenantId: string; credentials: ProviderCredentials } | null> {
    // Read for every webhook: one prepared statement (no query builder), the secrets opened once.
    const row = await this.store.byWaba(wabaId, m);
    return row
      ? {
          tenantId: row.tenant_id,
          credentials: this.opened({ tenantId: row.tenant_id, wabaId: row.waba_id, sealed: row.sealed }),
        }
      : null;
  }

  /** Whether some account configured this verify token (the GET verification handshake). */
  async knowsVerifyToken(token: string): Promise<boolean> {
    const rows = await this.repo.findBy({ verifyTokenHash: hashToken(token) });
    return rows.some((r) => this.opened(r).verifyToken === token);
  }

  async markSubscribed(tenantId: string): Promise<void> {
    await this.repo.update({ tenantId }, { subscribedAt: this.clock.now() });
  }

  opened(row: Pick<ProviderCredentialEntity, 'tenantId' | 'wabaId' | 'sealed'>): ProviderCredentials {
    const boundTo = aad(row.tenantId, row.wabaId);
    const key = `${boundTo}\n${row.sealed}`;
    let secrets = this.openedBySealed.get(key);
    if (!secrets) {
      secrets = this.cipher.openJson<Sealed>(row.sealed, boundTo);
      if (this.openedBySealed.size >= OPENED_MAX)
        this.openedBySealed.delete(this.openedBySealed.keys().next().value as string);
      this.openedBySealed.set(key, secrets);
    }
    return { ...secrets, wabaId: row.wabaId };
  }
}

/**
 * Runs a provider call, answering in the envelope instead of a 500: 409 when the provider refuses the
 * account's saved token (401, Graph code 190: the account must save valid credentials), 502 when it
 * refuses otherwise, 503 when it cannot be reached.
 */
export async function viaProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ProviderError && (err.status === 401 || err.providerCode === 190))
      throw new CredentialsException(
        CredentialsErrorCode.ProviderCredentialsRejected,
        `the messaging provider refused the account's access token (PUT /v1/msg/provider-credentials with a valid one): ${err.message}`,
      );
    if (err instanceof ProviderError)
      throw new CredentialsException(
        CredentialsErrorCode.ProviderRefused,
        `the messaging provider refused: ${err.message}`,
      );
    if (err instanceof ProviderUnreachableError)
      throw new CredentialsException(
        CredentialsErrorCode.ProviderUnavailable,
        `the messaging provider is unreachable: ${err.message}`,
      );
    throw err;
  }
}
