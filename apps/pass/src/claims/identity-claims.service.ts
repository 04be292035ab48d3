import { randomUUID } from 'node:crypto';

import { ProcessFinishedPayload, ValidationFinishedPayload } from '@kyc/contracts';
import { Clock, lockForTransaction } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { DocumentClaim, PassUserEntity } from '../users/pass-user.entity';
import { AccountValidationEntity } from './account-validation.entity';
import { UserAccountEntity } from './user-account.entity';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Verified identity data from the identity and validations services' events.
 *
 * - `validations.validation.finished`: every finished validation is kept under its (tenant, account).
 * - `identity.process.finished` with status `success`: the person is the process's `email` variable (collected
 *   by the flow's e-mail step); their identity becomes verified with the process's variables (names, birth date,
 *   document) and the process's validation account is linked to them.
 *
 * Either event then folds the successful validations of every account linked to the person into their claims
 * (document and face methods, face enrolment and liveness, verified phone, manual review), so the order in
 * which the two services' events arrive does not matter.
 */
@Injectable()
export class IdentityClaimsService {
  constructor(private readonly clock: Clock) {}

  async applyValidationFinished(m: EntityManager, payload: ValidationFinishedPayload): Promise<void> {
    const v = payload.validation;
    if (!v?.validation_id || !v.account_id || !v.tenant_id) return;
    await this.lockAccount(m, v.tenant_id, v.account_id);
    await m
      .createQueryBuilder()
      .insert()
      .into(AccountValidationEntity)
      .values({
        validationId: v.validation_id,
        tenantId: v.tenant_id,
        accountId: v.account_id,
        type: v.type,
        status: v.validation_status,
        country: v.country ?? null,
        documentType: v.document_type ?? null,
        manualReviewStatus: v.manual_review_status ?? null,
        subvalidations: payload.subvalidations ?? [],
        finishedAt: new Date(v.finished_date ?? v.update_date),
      })
      .orUpdate(['status', 'manual_review_status', 'subvalidations', 'finished_at'], ['validation_id'])
      .execute();
    const link = await m.findOneBy(UserAccountEntity, { tenantId: v.tenant_id, accountId: v.account_id });
    if (link) await this.fold(m, link.userId);
  }

  async applyProcessFinished(m: EntityManager, payload: ProcessFinishedPayload): Promise<void> {
    const p = payload.process;
    const vars = payload.variables ?? {};
    const email = text(vars.email)?.toLowerCase();
    if (p?.status !== 'success' || !email || !p.account_id || !p.tenant_id) return;
    await this.lockAccount(m, p.tenant_id, p.account_id);
    const now = this.clock.now();
    const user = await this.findOrCreate(m, email, now);
    const country = text(vars.country);
    const documentType = text(vars.document_type);
    const documentNumber = text(vars.document_number);
    const birthdate = text(vars.date_of_birth) ?? text(vars.birthdate);
    user.identity = {
      ...user.identity,
      verified: true,
      verification_date: p.finished_date ?? p.update_date,
      first_name: text(vars.first_name) ?? user.identity.first_name,
      last_name: text(vars.last_name) ?? user.identity.last_name,
      gender: text(vars.gender) ?? user.identity.gender,
      birthdate: birthdate && DATE.test(birthdate) ? birthdate : user.identity.birthdate,
      nationality: country && country !== 'ALL' ? country.toUpperCase() : user.identity.nationality,
      document_number: documentNumber ?? user.identity.document_number,
      document_type: documentType ?? user.identity.document_type,
    };
    if (documentNumber && documentType && country) {
      const document: DocumentClaim = {
        country: country.toLowerCase(),
        document_type: documentType,
        document_number: documentNumber,
        verified: true,
      };
      user.documents = [
        ...user.documents.filter((d) => !(d.country === document.country && d.document_type === documentType)),
        document,
      ];
    }
    const phone = text(vars.phone_number) ?? text(vars.cell_phone);
    if (phone && phone !== user.phoneNumber) {
      user.phoneNumber = phone;
      user.phoneVerified = false;
    }
    user.updatedAt = now;
    await m.save(PassUserEntity, user);
    await m
      .createQueryBuilder()
      .insert()
      .into(UserAccountEntity)
      .values({ tenantId: p.tenant_id, accountId: p.account_id, userId: user.id, linkedAt: now })
      .orUpdate(['user_id', 'linked_at'], ['tenant_id', 'account_id'])
      .execute();
    await this.fold(m, user.id);
  }

  /**
   * One writer per validation account at a time. The two events arrive on different topics, consumed concurrently:
   * without it, a validation stored while its account is being linked sees no link yet, and the link's fold does not
   * see the uncommitted validation, so neither folds it.
   */
  private lockAccount(m: EntityManager, tenantId: string, accountId: string): Promise<void> {
    return lockForTransaction(m, `pass-claims-account|${tenantId}|${accountId}`);
  }

  /** Folds the successful validations of the person's linked accounts into their claims. */
  private async fold(m: EntityManager, userId: string): Promise<void> {
    const user = await m.findOne(PassUserEntity, { where: { id: userId }, lock: { mode: 'pessimistic_write' } });
    if (!user) return;
    const validations = await m
      .createQueryBuilder(AccountValidationEntity, 'v')
      .innerJoin(UserAccountEntity, 'a', 'a.tenant_id = v.tenant_id AND a.account_id = v.account_id')
      .where('a.user_id = :userId', { userId })
      .orderBy('v.finished_at', 'ASC')
      .getMany();
    const ok = validations.filter((v) => v.status === 'success');
    const of = (type: string) => ok.filter((v) => v.type === type);
    const documents = of('document-validation');
    const faces = of('face-recognition');
    const methods = new Set(user.identity.verification_methods ?? []);
    if (documents.length) methods.add('document');
    if (faces.length) methods.add('face');
    if (of('phone-verification').length && user.phoneNumber) {
      user.phoneVerified = true;
      methods.add('phone');
    }
    user.identity = {
      ...user.identity,
      verification_methods: [...methods].sort(),
      verification_level: user.identity.verified
        ? documents.length && faces.length
          ? 'high'
          : documents.length
            ? 'medium'
            : (user.identity.verification_level ?? 'low')
        : user.identity.verification_level,
      was_manually_reviewed:
        validations.some((v) => v.manualReviewStatus === 'approved' || v.manualReviewStatus === 'declined') ||
        user.identity.was_manually_reviewed,
    };
    const lastFace = faces.at(-1);
    if (lastFace) {
      const liveness = lastFace.subvalidations.find((s) => s.name === 'passive_liveness');
      user.biometric = {
        ...user.biometric,
        face_enrolled: true,
        last_face_verification_date: lastFace.finishedAt.toISOString(),
        ...(liveness && liveness.status !== 'skipped' ? { liveness_check_passed: liveness.status === 'success' } : {}),
      };
    }
    user.updatedAt = this.clock.now();
    await m.save(PassUserEntity, user);
  }

  private async findOrCreate(m: EntityManager, email: string, now: Date): Promise<PassUserEntity> {
    await m
      .createQueryBuilder()
      .insert()
      .into(PassUserEntity)
      .values({
        id: randomUUID(),
        email,
        phoneNumber: null,
        phoneVerified: false,
        identity: {},
        documents: [],
        background: {},
        biometric: {},
        address: null,
        createdAt: now,
        updatedAt: now,
      })
      .orIgnore()
      .execute();
    return m.findOneOrFail(PassUserEntity, { where: { email }, lock: { mode: 'pessimistic_write' } });
  }
}
