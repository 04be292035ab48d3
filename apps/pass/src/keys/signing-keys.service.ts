import { createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, randomUUID } from 'node:crypto';

import { Clock, lockForTransaction } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, MoreThan } from 'typeorm';

import { SecretBox } from '../crypto/secret-box';
import { SigningKeyEntity } from './signing-key.entity';

/** A private signing key and its kid (published in the key set). */
export interface SigningKey {
  key: KeyObject;
  kid: string;
}

/** A private JWK as oidc-provider's `jwks` configuration takes it. */
export interface PrivateJwk {
  kid: string;
  kty: string;
  alg: string;
  use: string;
  [member: string]: unknown;
}

/** A public JWK of the key set (RFC 7517). */
export interface PublicJwk {
  kid: string;
  kty: string;
  alg: string;
  use: string;
  n: string;
  e: string;
}

const aad = (kid: string) => `pass-signing-key:${kid}`;
/** Serializes key generation across replicas booting at once. */
const LOCK = 'pass-signing-keys';

/** Each replica re-reads the newest active key this often (a rotation on another replica reaches it within). */
export const SIGNING_KEY_REFRESH_MS = 60_000;
/**
 * A retired key stays in the key set this long after a newer key took over: longer than an id_token lives
 * (5 minutes) plus the time other replicas may keep signing with it (SIGNING_KEY_REFRESH_MS) plus the time
 * relying parties cache the key set (Cache-Control max-age of /v1/oauth2/jwks).
 */
export const SIGNING_KEY_OVERLAP_S = 3600;
/** The key set is served from memory for this long (it is public: no database read per request). */
const KEY_SET_CACHE_MS = 10_000;

/**
 * The provider's signing keys (RS256): generated once, stored sealed with PASS_SECRETS_KEY, rotatable.
 * The newest active key signs; a retired key stays published for SIGNING_KEY_OVERLAP_S, then is kept in the
 * table for the record only.
 */
@Injectable()
export class SigningKeysService {
  private signing?: { at: number; key: Promise<SigningKey> };
  private keySet?: { at: number; keys: Promise<PublicJwk[]> };

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
      return rows.map((row) => this.open(row));
    });
  }

  /** The key id_tokens are signed with now: the newest active key (re-read every SIGNING_KEY_REFRESH_MS). */
  signingKey(): Promise<SigningKey> {
    const now = Date.now();
    if (!this.signing || now - this.signing.at >= SIGNING_KEY_REFRESH_MS) {
      const key = this.activeKeys().then(([jwk]) => ({
        kid: jwk.kid,
        key: createPrivateKey({ key: jwk as never, format: 'jwk' }),
      }));
      key.catch(() => (this.signing = undefined));
      this.signing = { at: now, key };
    }
    return this.signing.key;
  }

  /** The public key set: every active key and the keys retired less than SIGNING_KEY_OVERLAP_S ago. */
  publishedKeys(): Promise<PublicJwk[]> {
    const now = Date.now();
    if (!this.keySet || now - this.keySet.at >= KEY_SET_CACHE_MS) {
      const keys = this.readPublishedKeys();
      keys.catch(() => (this.keySet = undefined));
      this.keySet = { at: now, keys };
    }
    return this.keySet.keys;
  }

  /** Generates a new signing key and retires the previous ones; returns the new key id. */
  async rotate(): Promise<{ kid: string; retired: string[] }> {
    const rotated = await this.dataSource.transaction(async (manager) => {
      await lockForTransaction(manager, LOCK);
      const previous = await this.active(manager);
      const kid = await this.generate(manager);
      const retired = previous.map((k) => k.kid);
      if (retired.length)
        await manager.update(SigningKeyEntity, retired, { status: 'retired', retiredAt: this.clock.now() });
      return { kid, retired };
    });
    this.signing = undefined;
    this.keySet = undefined;
    return rotated;
  }

  private async readPublishedKeys(): Promise<PublicJwk[]> {
    await this.activeKeys();
    const since = new Date(this.clock.now().getTime() - SIGNING_KEY_OVERLAP_S * 1000);
    const rows = await this.dataSource.getRepository(SigningKeyEntity).find({
      where: [{ status: 'active' }, { status: 'retired', retiredAt: MoreThan(since) }],
      order: { createdAt: 'DESC' },
    });
    return rows.map((row) => {
      const { kty, n, e } = createPublicKey(createPrivateKey({ key: this.open(row) as never, format: 'jwk' })).export({
        format: 'jwk',
      });
      return { kty: kty!, use: 'sig', alg: 'RS256', kid: row.kid, n: n!, e: e! };
    });
  }

  private open(row: SigningKeyEntity): PrivateJwk {
    return JSON.parse(this.box.open(row.sealedJwk, aad(row.kid))) as PrivateJwk;
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
      retiredAt: null,
    });
    return kid;
  }
}
