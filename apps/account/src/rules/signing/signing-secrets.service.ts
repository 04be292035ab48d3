import { Caller, Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { AuditLogService } from '../../audit/audit-log.service';
import { SecretBox } from '../secrets/secret-box';
import { DEFAULT_GRACE_SECONDS } from './dto/rotate-signing-secret.dto';
import { newSigningSecret } from './signature';
import { SigningSecretEntity } from './signing-secret.entity';

export interface SigningSecretView {
  secret: string;
  creationDate: Date;
  rotatedAt: Date | null;
  previousValidUntil: Date | null;
}

const aad = (tenantId: string, which: 'current' | 'previous') => `${tenantId}/signing-secret/${which}`;

/** The per-tenant webhook signing secret: created on first use, rotated with a grace period. */
@Injectable()
export class SigningSecretsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly box: SecretBox,
    private readonly audit: AuditLogService,
    private readonly clock: Clock,
  ) {}

  async get(caller: Caller): Promise<SigningSecretView> {
    return this.view(await this.ensure(this.dataSource.manager, caller.tenantId));
  }

  /** A new secret; the previous one keeps signing next to it for the grace period. */
  async rotate(caller: Caller, graceSeconds = DEFAULT_GRACE_SECONDS): Promise<SigningSecretView> {
    return this.dataSource.transaction(async (m) => {
      await this.ensure(m, caller.tenantId);
      const row = await m
        .getRepository(SigningSecretEntity)
        .createQueryBuilder('s')
        .setLock('pessimistic_write')
        .where('s.tenantId = :t', { t: caller.tenantId })
        .getOneOrFail();
      const now = this.clock.now();
      const current = this.box.open(row.sealedSecret, aad(caller.tenantId, 'current'));
      const next = newSigningSecret();
      row.sealedPreviousSecret = graceSeconds > 0 ? this.box.seal(current, aad(caller.tenantId, 'previous')) : null;
      row.previousValidUntil = graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000) : null;
      row.sealedSecret = this.box.seal(next, aad(caller.tenantId, 'current'));
      row.rotatedAt = now;
      await m.save(SigningSecretEntity, row);
      await this.audit.record(m, caller, {
        action: 'signing_secret.rotated',
        resourceType: 'signing_secret',
        resourceId: caller.tenantId,
        changes: {
          secret: { from: '[secret]', to: '[secret]' },
          previous_valid_until: { to: row.previousValidUntil?.toISOString() ?? null },
        },
      });
      return this.view(row);
    });
  }

  /**
   * The secrets that sign now: the current one, then the previous one while its grace period
   * lasts. `row` is the tenant's signing-secret row when the caller has read it already.
   */
  async signingSecrets(
    tenantId: string,
    row?: Pick<SigningSecretEntity, 'sealedSecret' | 'sealedPreviousSecret' | 'previousValidUntil'> | null,
  ): Promise<string[]> {
    const r = row ?? (await this.ensure(this.dataSource.manager, tenantId));
    const secrets = [this.box.open(r.sealedSecret, aad(tenantId, 'current'))];
    if (r.sealedPreviousSecret && r.previousValidUntil && r.previousValidUntil > this.clock.now())
      secrets.push(this.box.open(r.sealedPreviousSecret, aad(tenantId, 'previous')));
    return secrets;
  }

  private async ensure(m: EntityManager, tenantId: string): Promise<SigningSecretEntity> {
    const existing = await m.findOneBy(SigningSecretEntity, { tenantId });
    if (existing) return existing;
    await m
      .createQueryBuilder()
      .insert()
      .into(SigningSecretEntity)
      .values({
        tenantId,
        sealedSecret: this.box.seal(newSigningSecret(), aad(tenantId, 'current')),
        createdAt: this.clock.now(),
      })
      .orIgnore()
      .execute();
    return m.findOneByOrFail(SigningSecretEntity, { tenantId });
  }

  private view(row: SigningSecretEntity): SigningSecretView {
    return {
      secret: this.box.open(row.sealedSecret, aad(row.tenantId, 'current')),
      creationDate: row.createdAt,
      rotatedAt: row.rotatedAt,
      previousValidUntil: row.previousValidUntil,
    };
  }
}
