import { ACCESS_EVENT_TYPES, ApiKeyState, ApiKeyType, TOPICS } from '@kyc/contracts';
import { ApiKeySigner, Clock, newId, OutboxService, paginate } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';

import { IdentityConfig } from '../config/identity.config';
import { FlowsService } from '../flows/flows.service';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyErrorCode, ApiKeyException } from './api-keys.exception';

export interface IssueApiKey {
  tenantId: string;
  userId: string;
  name: string;
  keyType: ApiKeyType;
  version: 0 | 1;
  expiresInSeconds?: number;
  grant?: string;
  flowId?: string;
  country?: string;
  documentType?: string;
  redirectUrl?: string;
  accountId?: string;
  emails?: string[];
  phones?: string[];
  billingHub?: string;
}

/** Web keys are temporary: 24 hours unless expires_in says otherwise. */
export const WEB_KEY_LIFETIME_SECONDS = 24 * 3600;

/** Issues API keys (signed JWTs) and revokes them; revocations reach every service through Kafka. */
@Injectable()
export class ApiKeysService {
  private readonly signer: ApiKeySigner;

  constructor(
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly flows: FlowsService,
    config: IdentityConfig,
    private readonly clock: Clock,
  ) {
    this.signer = new ApiKeySigner(config.API_KEY_PRIVATE_KEY!);
  }

  async issue(input: IssueApiKey): Promise<{ key: ApiKeyEntity; token: string }> {
    const now = this.clock.now();
    const iat = Math.floor(now.getTime() / 1000);
    if (input.flowId) await this.flows.get(input.tenantId, input.flowId);
    const lifetime = input.expiresInSeconds ?? (input.keyType === 'backend' ? undefined : WEB_KEY_LIFETIME_SECONDS);
    const exp = lifetime ? iat + lifetime : undefined;
    const key = this.keys.create({
      id: newId('KEY'),
      tenantId: input.tenantId,
      userId: input.userId,
      name: input.name,
      keyType: input.keyType,
      version: input.version,
      grant: input.grant ?? null,
      flowId: input.flowId ?? null,
      country: input.country ?? null,
      documentType: input.documentType ?? null,
      redirectUrl: input.redirectUrl ?? null,
      accountId: input.accountId ?? null,
      emails: input.emails ?? null,
      phones: input.phones ?? null,
      billingHub: input.billingHub ?? null,
      expiresAt: exp ? new Date(exp * 1000) : null,
      revokedAt: null,
      createdAt: now,
    });
    await this.keys.insert(key);
    const token = await this.signer.sign({
      jti: key.id,
      sub: input.userId,
      tenant_id: input.tenantId,
      key_type: input.keyType,
      ver: input.version,
      ...(input.grant ? { grant: input.grant } : {}),
      ...(input.flowId ? { flow_id: input.flowId } : {}),
      iat,
      ...(exp ? { exp } : {}),
    });
    return { key, token };
  }

  list(tenantId: string, startKey?: string) {
    const qb = this.keys.createQueryBuilder('k').where('k.tenantId = :tenantId', { tenantId });
    return paginate(qb, { startKey, limit: 20 });
  }

  async get(tenantId: string, keyId: string): Promise<ApiKeyEntity> {
    const key = await this.keys.findOneBy({ tenantId, id: keyId });
    if (!key) throw new ApiKeyException(ApiKeyErrorCode.ApiKeyNotFound, `API key ${keyId} not found`);
    return key;
  }

  async revoke(tenantId: string, keyId: string): Promise<ApiKeyEntity> {
    return this.dataSource.transaction(async (m) => {
      const key = await m.findOne(ApiKeyEntity, {
        where: { tenantId, id: keyId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!key) throw new ApiKeyException(ApiKeyErrorCode.ApiKeyNotFound, `API key ${keyId} not found`);
      if (!key.revokedAt) {
        key.revokedAt = this.clock.now();
        await m.update(ApiKeyEntity, { id: key.id }, { revokedAt: key.revokedAt });
        await this.outbox.add(m, {
          topic: TOPICS.apiKeyState,
          type: ACCESS_EVENT_TYPES.apiKeyChanged,
          tenantId,
          aggregateId: key.id,
          payload: { tenant_id: tenantId, key_id: key.id, revoked: true } satisfies ApiKeyState,
        });
      }
      return key;
    });
  }
}
