import { randomUUID } from 'node:crypto';

import { ACCESS_EVENT_TYPES, ApiKeyState, ApiKeyType, TOPICS } from '@kyc/contracts';
import { ApiKeySigner, OutboxService } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';

import { IdentityConfig } from '../config/identity.config';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyErrorCode, ApiKeyException } from './api-keys.exception';

export interface IssueApiKey {
  tenantId: string;
  userId: string;
  name: string;
  keyType: ApiKeyType;
  version: 0 | 1;
  expiresInSeconds?: number;
}

/** Issues API keys (signed JWTs) and revokes them; revocations reach every service through Kafka. */
@Injectable()
export class ApiKeysService {
  private readonly signer: ApiKeySigner;

  constructor(
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    config: IdentityConfig,
  ) {
    this.signer = new ApiKeySigner(config.API_KEY_PRIVATE_KEY!);
  }

  async issue(input: IssueApiKey): Promise<{ key: ApiKeyEntity; token: string }> {
    const now = new Date();
    const iat = Math.floor(now.getTime() / 1000);
    const exp = input.expiresInSeconds ? iat + input.expiresInSeconds : undefined;
    const key = this.keys.create({
      id: `KEY${randomUUID().replace(/-/g, '')}`,
      tenantId: input.tenantId,
      userId: input.userId,
      name: input.name,
      keyType: input.keyType,
      version: input.version,
      grant: null,
      flowId: null,
      expiresAt: exp ? new Date(exp * 1000) : null,
      revokedAt: null,
      createdAt: now,
    });
    await this.keys.insert(key);
    const token = this.signer.sign({
      jti: key.id,
      sub: input.userId,
      tenant_id: input.tenantId,
      key_type: input.keyType,
      ver: input.version,
      iat,
      ...(exp ? { exp } : {}),
    });
    return { key, token };
  }

  async revoke(tenantId: string, keyId: string): Promise<ApiKeyEntity> {
    return this.dataSource.transaction(async (m) => {
      const key = await m.findOne(ApiKeyEntity, {
        where: { tenantId, id: keyId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!key) throw new ApiKeyException(ApiKeyErrorCode.ApiKeyNotFound, `API key ${keyId} not found`);
      if (!key.revokedAt) {
        key.revokedAt = new Date();
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
