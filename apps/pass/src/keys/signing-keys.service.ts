import { generateKeyPairSync, randomUUID } from 'node:crypto';

import { Clock, lockForTransaction } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

import { SecretBox } from '../crypto/secret-box';
import { SigningKeyEntity } from './signing-key.entity';

/** A private JWK as oidc-provider's `jwks` configuration takes it. */
export interface PrivateJwk {
  kid: string;
  kty: string;
  alg: string;
  use: string;
  [member: string]: unknown;
}

const aad = (kid: string) => `pass-signing-key:${kid}`;
/** Serializes key generation across replicas booting at once. */
const LOCK = 'pass-signing-keys';

/**
 * The provider's signing keys (RS256): generated once, stored sealed with PASS_SECRETS_KEY, rotatable.
 * The newest active key signs; retired keys are kept in the table for the record.
 */
@Injectable()
export class SigningKeysService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** The active keys, newest first; generates the first one when there is none. */
  async activeKeys(): Promise<PrivateJwk[]> {
    return this.dataSource.transaction(async (manager) => {
      await lockForTransaction(manager, LOCK);
      let rows = await this.active(manager);
      if (rows.length === 0) {
        await this.generate(manager);
        rows = await this.active(manager);
      }
      return rows.map((row) => JSON.parse(this.box.open(row.sealedJwk, aad(row.kid))) as PrivateJwk);
    });
  }

  /** Generates a new signing key and retires the previous ones; returns the new key id. */
  async rotate(): Promise<{ kid: string; retired: string[] }> {
    return this.dataSource.transaction(async (manager) => {
      await lockForTransaction(manager, LOCK);
      const previous = await this.active(manager);
      const kid = await this.generate(manager);
      const retired = previous.map((k) => k.kid);
      if (retired.length) await manager.update(SigningKeyEntity, retired, { status: 'retired' });
      return { kid, retired };
    });
  }

  private active(manager: EntityManager): Promise<SigningKeyEntity[]> {
    return manager.find(SigningKeyEntity, { where: { status: 'active' }, order: { createdAt: 'DESC' } });
  }

  private async generate(manager: EntityManager): Promise<string> {
    const kid = randomUUID();
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
    await manager.insert(SigningKeyEntity, {
      kid,
      sealedJwk: this.box.seal(JSON.stringify(jwk), aad(kid)),
      status: 'active',
      createdAt: this.clock.now(),
    });
    return kid;
  }
}
