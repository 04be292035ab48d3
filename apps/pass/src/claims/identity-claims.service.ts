import { randomUUID } from 'node:crypto';

import { ProcessFinishedPayload, ProcessProof, PROOF_STEP_TYPES, ValidationFinishedPayload } from '@kyc/contracts';
import { Clock, lockForTransaction } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';

import { ClaimProvenance, tenantMayWrite } from '../users/claim-provenance';
import { PassUserEntity } from '../users/pass-user.entity';
import { AccountValidationEntity } from './account-validation.entity';
import { IdentityProcessEntity } from './identity-process.entity';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const REVIEWED = ['approved', 'declined'];

const isProof = (p: unknown): p is ProcessProof =>
  !!p &&
  typeof p === 'object' &&
  (PROOF_STEP_TYPES as readonly string[]).includes((p as ProcessProof).step_type) &&
  typeof (p as ProcessProof).validation_id === 'string';

/**
 * Verified identity data from the identity and validations services' events, each claim with its provenance
 * (docs/security.md, "Pass claims and their provenance").
 *
 * - `validations.validation.finished`: every finished validation is kept with its tenant and process.
 * - `identity.process.finished` with status `success` binds the process to a person only through the identifier
 *   the process itself proved (its `proofs`): the address its e-mail step's one-time code went to (the person is
 *   created if pass does not know them). Typed-in variables never bind.
 *
 * Either event then folds the person's bound processes into their claims (so arrival order does not matter):
 * the identity is verified only by a process whose document and face steps both passed; once proven, only a
 * later process of the same tenant refreshes it (another tenant's never replaces it; an operator's seed is never
 * replaced by an event). The phone (the CIBA channel) is never changed by events: it is the one the person
 * proved in pass (today: seeded by the operator).
 */
@Injectable()
export class IdentityClaimsService {
  constructor(private readonly clock: Clock) {}

  async applyValidationFinished(m: EntityManager, payload: ValidationFinishedPayload): Promise<void> {
    const v = payload.validation;
    if (!v?.validation_id || !v.account_id || !v.tenant_id) return;
    if (v.process_id) await this.lockProcess(m, v.tenant_id, v.process_id);
    await m
      .createQueryBuilder()
      .insert()
      .into(AccountValidationEntity)
      .values({
        validationId: v.validation_id,
        tenantId: v.tenant_id,
        accountId: v.account_id,
        processId: v.process_id ?? null,
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
    if (!v.process_id) return;
    const bound = await m.findOneBy(IdentityProcessEntity, { tenantId: v.tenant_id, processId: v.process_id });
    if (bound) await this.fold(m, bound.userId);
  }

  async applyProcessFinished(m: EntityManager, payload: ProcessFinishedPayload): Promise<void> {
    const p = payload.process;
    if (p?.status !== 'success' || !p.process_id || !p.tenant_id) return;
    const proofs = (Array.isArray(payload.proofs) ? payload.proofs : []).filter(isProof);
    await this.lockProcess(m, p.tenant_id, p.process_id);
    const binding = await this.bind(m, p.tenant_id, p.process_id, proofs);
    if (!binding) return;
    await m
      .createQueryBuilder()
      .insert()
      .into(IdentityProcessEntity)
      .values({
        tenantId: p.tenant_id,
        processId: p.process_id,
        userId: binding.userId,
        boundBy: binding.proof,
        proofs,
        variables: payload.variables ?? {},
        finishedAt: new Date(p.finished_date ?? p.update_date),
        recordedAt: this.clock.now(),
      })
      .orIgnore()
      .execute();
    await this.fold(m, binding.userId);
  }

  /**
   * The person the process proved it is about: the address its e-mail step's code went to. A phone step's code
   * does not bind: the sandbox phone provider shows a tenant the codes it sends (GET {validations}/v1/sandbox/
   * phone-messages), so against that tenant it proves nothing.
   */
  private async bind(
    m: EntityManager,
    tenantId: string,
    processId: string,
    proofs: ProcessProof[],
  ): Promise<{ userId: string; proof: ClaimProvenance } | undefined> {
    const emailStep = proofs.find((s) => s.step_type === 'email' && EMAIL.test(text(s.value) ?? ''));
    if (!emailStep) return undefined;
    const proof: ClaimProvenance = {
      source: 'identity',
      tenant_id: tenantId,
      process_id: processId,
      validation_ids: [emailStep.validation_id],
      method: 'email_otp',
      verified_at: emailStep.proven_date ?? this.clock.now().toISOString(),
    };
    const user = await this.findOrCreate(m, text(emailStep.value)!.toLowerCase(), proof);
    return { userId: user.id, proof };
  }

  /**
   * One writer per process at a time. The two events arrive on different topics, consumed concurrently: without
   * it, a validation stored while its process is being bound sees no binding yet, and the binding's fold does not
   * see the uncommitted validation, so neither folds it.
   */
  private lockProcess(m: EntityManager, tenantId: string, processId: string): Promise<void> {
    return lockForTransaction(m, `pass-claims-process|${tenantId}|${processId}`);
  }

  /** Folds the person's bound processes (and their validations) into their claims. */
  private async fold(m: EntityManager, userId: string): Promise<void> {
    const user = await m.findOne(PassUserEntity, { where: { id: userId }, lock: { mode: 'pessimistic_write' } });
    if (!user) return;
    const processes = await m.find(IdentityProcessEntity, { where: { userId }, order: { finishedAt: 'ASC' } });
    const ids = processes.flatMap((p) => p.proofs.map((s) => s.validation_id));
    const validations = new Map(
      (ids.length ? await m.findBy(AccountValidationEntity, { validationId: In(ids) }) : []).map((v) => [
        v.validationId,
        v,
      ]),
    );
    /** The process's step of that type, when it passed (its validation, once known, is the tenant's and a success). */
    const passed = (p: IdentityProcessEntity, type: string) => {
      const step = p.proofs.find((s) => s.step_type === type);
      const v = step && validations.get(step.validation_id);
      if (!step || (v && (v.tenantId !== p.tenantId || v.status !== 'success'))) return undefined;
      return { step, validation: v };
    };
    const proven = processes.filter((p) => passed(p, 'document') && passed(p, 'face'));
    const previous = user.provenance.identity;
    if (previous && previous.source !== 'legacy' && previous.source !== 'identity') return; // the operator's seed stays
    // A validation known later did not pass: what that process had proven is withdrawn.
    if (previous?.source === 'identity' && !proven.some((p) => p.processId === previous.process_id))
      await this.withdraw(m, user, previous.process_id!);
    const current = user.provenance.identity;
    const chosen =
      current?.source === 'identity' ? proven.filter((p) => p.tenantId === current.tenant_id).at(-1) : proven[0];
    if (!chosen) return;
    const document = passed(chosen, 'document')!;
    const face = passed(chosen, 'face')!;
    const vars = chosen.variables;
    const verifiedAt = chosen.finishedAt.toISOString();
    const by = (method: string, validationIds: string[], at = verifiedAt): ClaimProvenance => ({
      source: 'identity',
      tenant_id: chosen.tenantId,
      process_id: chosen.processId,
      validation_ids: validationIds,
      method,
      verified_at: at,
    });
    const country = text(vars.country) ?? document.validation?.country ?? undefined;
    const documentType = text(vars.document_type) ?? document.validation?.documentType ?? undefined;
    const documentNumber = text(vars.document_number);
    const birthdate = text(vars.date_of_birth) ?? text(vars.birthdate);
    user.identity = {
      verified: true,
      verification_level: 'high',
      verification_date: verifiedAt,
      verification_methods: ['document', 'face', ...(user.phoneVerified ? ['phone'] : [])].sort(),
      first_name: text(vars.first_name),
      last_name: text(vars.last_name),
      gender: text(vars.gender),
      birthdate: birthdate && DATE.test(birthdate) ? birthdate : undefined,
      nationality: country && country !== 'ALL' ? country.toUpperCase() : undefined,
      document_number: documentNumber,
      document_type: documentType,
      was_manually_reviewed: [document.validation, face.validation].some((v) =>
        REVIEWED.includes(v?.manualReviewStatus ?? ''),
      ),
    };
    const provenance = {
      ...user.provenance,
      identity: by('document+face', [document.step.validation_id, face.step.validation_id]),
    };
    if (documentNumber && documentType && country) {
      const key = `${country.toLowerCase()}:${documentType}`;
      if (tenantMayWrite(provenance.documents?.[key], chosen.tenantId)) {
        user.documents = [
          ...user.documents.filter((d) => `${d.country}:${d.document_type}` !== key),
          {
            country: country.toLowerCase(),
            document_type: documentType,
            document_number: documentNumber,
            verified: true,
          },
        ];
        provenance.documents = { ...provenance.documents, [key]: by('document', [document.step.validation_id]) };
      }
    }
    if (face.validation && tenantMayWrite(provenance.biometric, chosen.tenantId)) {
      const liveness = face.validation.subvalidations.find((s) => s.name === 'passive_liveness');
      const at = face.validation.finishedAt.toISOString();
      user.biometric = {
        face_enrolled: true,
        last_face_verification_date: at,
        ...(liveness && liveness.status !== 'skipped' ? { liveness_check_passed: liveness.status === 'success' } : {}),
      };
      provenance.biometric = by('face', [face.step.validation_id], at);
    }
    user.provenance = provenance;
    user.updatedAt = this.clock.now();
    await m.save(PassUserEntity, user);
  }

  /** Withdraws the claims a process had proven (its identity, its documents, its face). */
  private async withdraw(m: EntityManager, user: PassUserEntity, processId: string): Promise<void> {
    const { identity: _identity, documents = {}, ...provenance } = user.provenance;
    const kept = Object.fromEntries(Object.entries(documents).filter(([, p]) => p.process_id !== processId));
    user.documents = user.documents.filter(
      (d) => kept[`${d.country}:${d.document_type}`] || !documents[`${d.country}:${d.document_type}`],
    );
    if (provenance.biometric?.process_id === processId) {
      delete provenance.biometric;
      user.biometric = {};
    }
    user.identity = {};
    user.provenance = { ...provenance, documents: kept };
    user.updatedAt = this.clock.now();
    await m.save(PassUserEntity, user);
  }

  /** The person with this e-mail (created on first proof), locked; an unproven e-mail claim takes this proof. */
  private async findOrCreate(m: EntityManager, email: string, proof: ClaimProvenance): Promise<PassUserEntity> {
    const now = this.clock.now();
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
        provenance: { email: proof },
        createdAt: now,
        updatedAt: now,
      })
      .orIgnore()
      .execute();
    const user = await m.findOneOrFail(PassUserEntity, { where: { email }, lock: { mode: 'pessimistic_write' } });
    if (!user.provenance.email || user.provenance.email.source === 'legacy') {
      user.provenance = { ...user.provenance, email: proof };
      await m.save(PassUserEntity, user);
    }
    return user;
  }
}
