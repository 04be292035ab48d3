import { randomInt } from 'node:crypto';

import type { ValidationCreatedPayload } from '@kyc/contracts';
import { TOPICS, VALIDATION_EVENT_TYPES } from '@kyc/contracts';
import {
  Caller,
  Clock,
  JobQueueService,
  OutboxService,
  Page,
  paginate,
  ValidationFailedException,
} from '@kyc/platform';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';

import { AccountsService } from '../accounts/accounts.service';
import { ValidationsConfig } from '../config/validations.config';
import { EnrollmentsService } from '../enrollments/enrollments.service';
import { MediaEntity, MediaSlot } from '../media/media.entity';
import { MediaService } from '../media/media.service';
import { newId, randomOtp } from '../shared/ids';
import { Secrets } from '../shared/link-signer';
import { ValidationsErrorCode, ValidationsException } from '../shared/validations.exception';
import { sidesOf } from '../validator-config/document-catalog';
import { ValidatorConfigService } from '../validator-config/validator-config.service';
import { validatorOf, ValidatorSettings } from '../validator-config/validator-settings';
import { CreateValidationDto, PerformValidationDto } from './dto/create-validation.dto';
import { OTP_QUEUE } from './otp-delivery.worker';
import { ValidationEntity } from './validation.entity';
import { presentValidation, validationRecord } from './validation.presenter';
import { ValidationStateService } from './validation-state.service';

export const PROCESS_QUEUE = 'validations.process';
export const PURGE_QUEUE = 'validations.purge';
const PAGE_SIZE = 20;
const SPEECH_WORDS = [
  'sol',
  'mar',
  'luna',
  'rio',
  'monte',
  'verde',
  'azul',
  'nube',
  'piedra',
  'campo',
  'fuego',
  'cielo',
];

/** A readable list of fields for a 400. */
const refuse = (field: string, message: string) => new ValidationFailedException([{ field, message }]);

/**
 * Validations: creation with every input rule, reads (account-scoped too), show_details, delete
 * and restore, and perform-validation of the OTP types. Engines run in ValidationRunner (a job),
 * endings go through ValidationStateService.
 */
@Injectable()
export class ValidationsService implements OnModuleInit {
  constructor(
    @InjectRepository(ValidationEntity) private readonly validations: Repository<ValidationEntity>,
    private readonly accounts: AccountsService,
    private readonly enrollments: EnrollmentsService,
    private readonly configs: ValidatorConfigService,
    private readonly media: MediaService,
    private readonly state: ValidationStateService,
    private readonly outbox: OutboxService,
    private readonly jobs: JobQueueService,
    private readonly secrets: Secrets,
    private readonly config: ValidationsConfig,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.media.registerOwner('validation', {
      acceptsUntil: async (m, id) => {
        const v = await m.getRepository(ValidationEntity).findOneBy({ id });
        return v && v.status === 'pending' && !v.deletedAt ? v.expiresAt : undefined;
      },
      complete: async (m, tenantId, id) => {
        await m.getRepository(ValidationEntity).update({ id }, { mediaCompleteAt: this.clock.now() });
        await this.jobs.enqueue(
          m,
          PROCESS_QUEUE,
          { validation_id: id },
          { tenantId, maxAttempts: 3, dedupeKey: `process:${id}` },
        );
      },
      visible: async (m, id) => {
        const v = await m.getRepository(ValidationEntity).findOneBy({ id });
        return !!v && !v.deletedAt;
      },
    });
    this.jobs.register<{ validation_id: string }>(PURGE_QUEUE, (job, m) => this.purge(m, job.payload.validation_id), {
      transactional: true,
      concurrency: 1,
    });
  }

  async create(caller: Caller, dto: CreateValidationDto, baseUrl: string, ipAddress?: string) {
    if (dto.country === 'ALL' && dto.type === 'document-validation' && dto.document_type !== 'passport')
      throw refuse('country', 'country ALL is only for document_type passport');
    const flow = dto.validator_settings as ValidatorSettings | undefined;
    if (flow) {
      const errors = this.configs.checkSettings(validatorOf(dto.type), flow, 'validator_settings.');
      if (errors.length) throw new ValidationFailedException(errors);
    }
    const settings = await this.configs.effective(caller.tenantId, dto.type, flow);
    if (dto.threshold !== undefined) settings.threshold = dto.threshold;
    settings.timeout = dto.timeout ?? settings.timeout;
    const now = this.clock.now();
    const subvalidations =
      dto.type === 'face-recognition' ? [...new Set(dto.subvalidations ?? ['similarity'])] : undefined;

    return this.state.transaction(async (m) => {
      const account =
        dto.type === 'document-validation'
          ? await this.accounts.getOrCreate(m, caller.tenantId, dto.account_id)
          : await this.accounts.get(caller, dto.account_id!, m);
      let enrollmentId: string | null = null;
      if (dto.type === 'face-recognition' || dto.type === 'email-verification' || dto.type === 'phone-verification') {
        const enrollment = await this.enrollments.findFor(
          m,
          caller.tenantId,
          account.accountId,
          dto.type,
          dto.phone_type,
        );
        if (!enrollment)
          throw new ValidationsException(
            ValidationsErrorCode.EnrollmentRequired,
            `account ${account.accountId} has no ${dto.type} enrollment${dto.phone_type ? ` for phone_type ${dto.phone_type}` : ''}; enroll it first`,
            [{ field: dto.phone_type ? 'phone_type' : 'account_id', message: `no ${dto.type} enrollment` }],
          );
        enrollmentId = enrollment.id;
      }
      const retryNumber = dto.retry_of_id
        ? await this.checkRetry(m, caller, dto, account.accountId, settings, subvalidations)
        : 0;
      const id = newId('VLD');
      const otp = dto.type === 'email-verification' || dto.type === 'phone-verification';
      const code = otp ? randomOtp(6) : undefined;
      const speechToken = subvalidations?.includes('speech_match')
        ? Array.from({ length: 3 }, () => SPEECH_WORDS[randomInt(SPEECH_WORDS.length)]).join(' ')
        : undefined;
      const { user_authorized: _u, validator_settings: _s, ...inputs } = dto;
      const validation = this.validations.create({
        id,
        tenantId: caller.tenantId,
        accountId: account.accountId,
        type: dto.type,
        status: 'pending',
        failureStatus: null,
        declinedReason: null,
        expiredReason: null,
        failureReason: null,
        manualReviewStatus: 'not_required',
        inputs: {
          ...inputs,
          ...(subvalidations ? { subvalidations } : {}),
          ...(speechToken ? { speech_token: speechToken } : {}),
        },
        settings,
        outcome: null,
        customInput: dto.custom_input ?? null,
        country: dto.country ?? null,
        documentType: dto.document_type ?? null,
        enrollmentId,
        retryOfId: dto.retry_of_id ?? null,
        retryNumber,
        attemptsLeft: otp ? (settings.allowed_retries ?? 2) + 1 : null,
        otpHash: code ? this.secrets.otpHash(id, code) : null,
        expiresAt: new Date(now.getTime() + settings.timeout * 1000),
        processId: dto.process_id ?? null,
        flowId: dto.flow_id ?? caller.flowId ?? null,
        ipAddress: ipAddress ?? null,
        createdBy: caller.userId,
        mediaCompleteAt: null,
        createdAt: now,
        updatedAt: now,
        finishedAt: null,
        deletedAt: null,
      });
      await m.getRepository(ValidationEntity).insert(validation);
      const slots: MediaSlot[] =
        dto.type === 'document-validation'
          ? sidesOf(dto.country!, dto.document_type!)
          : dto.type === 'face-recognition' || dto.type === 'face-search'
            ? ['face_photo', ...(speechToken ? (['video'] as const) : [])]
            : [];
      const media = await this.media.createSlots(m, caller.tenantId, 'validation', id, slots);
      if (code)
        await this.jobs.enqueue(
          m,
          OTP_QUEUE,
          { validation_id: id, sealed_code: this.secrets.seal(code) },
          {
            tenantId: caller.tenantId,
            maxAttempts: 5,
            dedupeKey: `otp:${id}`,
          },
        );
      await this.state.scheduleTimeout(m, validation);
      await this.outbox.add(m, {
        topic: TOPICS.validationCreated,
        type: VALIDATION_EVENT_TYPES.validationCreated,
        tenantId: caller.tenantId,
        aggregateId: id,
        payload: { validation: validationRecord(validation) } satisfies ValidationCreatedPayload,
      });
      return presentValidation(validation, { instructions: this.instructions(validation, media, baseUrl) });
    });
  }

  /**
   * retry_of_id: the failed validation this one retries, of the same account and type, ended less
   * than retry_ttl ago, with retries left (allowed_retries); face-recognition retries need passive liveness.
   */
  private async checkRetry(
    m: EntityManager,
    caller: Caller,
    dto: CreateValidationDto,
    accountId: string,
    settings: ValidatorSettings,
    subvalidations?: string[],
  ): Promise<number> {
    const allowed = settings.allowed_retries ?? 0;
    if (allowed === 0)
      throw new ValidationsException(
        ValidationsErrorCode.RetryNotAllowed,
        `retries are not active for ${dto.type} (allowed_retries is 0)`,
        [{ field: 'retry_of_id', message: 'retries are not active' }],
      );
    if (dto.type === 'face-recognition' && !subvalidations?.includes('passive_liveness'))
      throw refuse('retry_of_id', 'face-recognition retries need the passive_liveness subvalidation');
    const previous = await m
      .getRepository(ValidationEntity)
      .findOneBy({ tenantId: caller.tenantId, id: dto.retry_of_id! });
    if (!previous || previous.deletedAt) throw refuse('retry_of_id', 'retry_of_id names no validation of this account');
    if (previous.accountId !== accountId)
      throw refuse('retry_of_id', 'the retried validation belongs to another account_id');
    if (previous.type !== dto.type) throw refuse('retry_of_id', `the retried validation is not a ${dto.type}`);
    if (previous.status !== 'failure') throw refuse('retry_of_id', 'only a failed validation can be retried');
    const ttl = (settings.retry_ttl ?? 300) * 1000;
    if (!previous.finishedAt || this.clock.now().getTime() - previous.finishedAt.getTime() > ttl)
      throw new ValidationsException(
        ValidationsErrorCode.RetryNotAllowed,
        `the retry window (retry_ttl ${settings.retry_ttl} s) has passed`,
        [{ field: 'retry_of_id', message: 'retry_ttl has passed' }],
      );
    if (previous.retryNumber + 1 > allowed)
      throw new ValidationsException(
        ValidationsErrorCode.RetryNotAllowed,
        `no retries left (allowed_retries ${allowed})`,
        [{ field: 'retry_of_id', message: 'no retries left' }],
      );
    const already = await m
      .getRepository(ValidationEntity)
      .countBy({ tenantId: caller.tenantId, retryOfId: previous.id });
    if (already) throw refuse('retry_of_id', 'this validation was already retried');
    return previous.retryNumber + 1;
  }

  /** Upload links of the slots still empty, while the validation waits for them. */
  private instructions(v: ValidationEntity, media: MediaEntity[], baseUrl: string): Record<string, string> {
    if (v.status !== 'pending' || v.deletedAt) return {};
    const out: Record<string, string> = {};
    const names: Record<MediaSlot, string> = {
      front: 'front_url',
      reverse: 'reverse_url',
      face_photo: 'file_upload_link',
      video: 'video_upload_link',
    };
    for (const slot of media.filter((s) => !s.uploadedAt))
      out[names[slot.slot]] = this.media.uploadLink(baseUrl, slot, v.expiresAt);
    if (Object.keys(out).length) out.upload_expiration = v.expiresAt.toISOString();
    if (v.inputs.speech_token) out.speech_token = String(v.inputs.speech_token);
    return out;
  }

  async get(caller: Caller, id: string, accountId?: string): Promise<ValidationEntity> {
    const v = await this.validations.findOneBy({ tenantId: caller.tenantId, id });
    if (!v || v.deletedAt || (accountId !== undefined && v.accountId !== accountId))
      throw new ValidationsException(ValidationsErrorCode.ValidationNotFound, `validation ${id} not found`);
    return v;
  }

  async getPresented(caller: Caller, id: string, showDetails: boolean, baseUrl: string, accountId?: string) {
    const v = await this.get(caller, id, accountId);
    const media = await this.media.slotsOf('validation', [v.id]);
    return presentValidation(v, {
      instructions: this.instructions(v, media, baseUrl),
      showDetails,
      media: showDetails
        ? media
            .filter((s) => s.uploadedAt)
            .map((s) => ({
              slot: s.slot,
              content_type: s.contentType,
              size: s.size,
              ...this.media.viewLink(baseUrl, s),
            }))
        : undefined,
    });
  }

  async list(
    caller: Caller,
    startKey: string | undefined,
    accountId?: string,
  ): Promise<Page<ReturnType<typeof presentValidation>>> {
    if (accountId !== undefined) await this.accounts.get(caller, accountId);
    const qb = this.validations
      .createQueryBuilder('v')
      .where('v.tenantId = :tenant AND v.deletedAt IS NULL', { tenant: caller.tenantId });
    if (accountId !== undefined) qb.andWhere('v.accountId = :accountId', { accountId });
    const page = await paginate(qb, { startKey, limit: PAGE_SIZE });
    return { items: page.items.map((v) => presentValidation(v)), nextKey: page.nextKey };
  }

  /** DELETE: hidden at once (reads, media links), data and media purged after VALIDATIONS_RESTORE_DAYS. */
  async remove(caller: Caller, id: string): Promise<void> {
    await this.state.transaction(async (m) => {
      const v = await this.state.lock(m, id, caller.tenantId);
      if (!v || v.deletedAt)
        throw new ValidationsException(ValidationsErrorCode.ValidationNotFound, `validation ${id} not found`);
      const now = this.clock.now();
      await m.getRepository(ValidationEntity).update({ id }, { deletedAt: now, updatedAt: now });
      if (this.config.VALIDATIONS_RESTORE_DAYS === 0) return this.purge(m, id);
      await this.jobs.enqueue(
        m,
        PURGE_QUEUE,
        { validation_id: id },
        {
          tenantId: caller.tenantId,
          runAt: new Date(now.getTime() + this.config.VALIDATIONS_RESTORE_DAYS * 86_400_000),
        },
      );
    });
  }

  async restore(caller: Caller, id: string): Promise<ValidationEntity> {
    return this.state.transaction(async (m) => {
      const v = await this.state.lock(m, id, caller.tenantId);
      if (!v) throw new ValidationsException(ValidationsErrorCode.ValidationNotFound, `validation ${id} not found`);
      if (!v.deletedAt)
        throw new ValidationsException(ValidationsErrorCode.ValidationNotDeleted, `validation ${id} is not deleted`);
      const now = this.clock.now();
      await m.getRepository(ValidationEntity).update({ id }, { deletedAt: null, updatedAt: now });
      return Object.assign(v, { deletedAt: null, updatedAt: now });
    });
  }

  /** Purge job: the validation's data and media go for good (unless it was restored). */
  private async purge(m: EntityManager, id: string): Promise<void> {
    const v = await this.state.lock(m, id);
    if (!v?.deletedAt) return;
    // The job of an earlier delete (restored since, then deleted again) leaves it to the later one.
    const window = this.config.VALIDATIONS_RESTORE_DAYS * 86_400_000;
    if (v.deletedAt.getTime() + window > this.clock.now().getTime()) return;
    await this.media.deleteOf(m, 'validation', [id]);
    await m.getRepository(ValidationEntity).delete({ id });
  }

  /** POST /v1/validations/{id}: the OTP. A wrong code uses an attempt; the last wrong one fails the validation. */
  async perform(caller: Caller, id: string, dto: PerformValidationDto) {
    return this.state.transaction(async (m) => {
      const v = await this.state.lock(m, id, caller.tenantId);
      if (!v || v.deletedAt)
        throw new ValidationsException(ValidationsErrorCode.ValidationNotFound, `validation ${id} not found`);
      if (v.type !== dto.type)
        throw new ValidationsException(ValidationsErrorCode.WrongValidationType, `validation ${id} is a ${v.type}`, [
          { field: 'type', message: `type must be ${v.type}` },
        ]);
      if (v.status !== 'pending')
        throw new ValidationsException(
          ValidationsErrorCode.ValidationNotPending,
          `validation ${id} already ended (${v.status})`,
        );
      if (v.expiresAt.getTime() <= this.clock.now().getTime()) {
        await this.state.finish(m, v, { status: 'expired', reason: 'token_not_submitted' });
      } else if (v.otpHash && this.secrets.otpMatches(v.id, dto.token, v.otpHash)) {
        await m.getRepository(ValidationEntity).update({ id }, { otpHash: null, attemptsLeft: v.attemptsLeft });
        v.otpHash = null;
        await this.state.finish(m, v, { status: 'success' });
      } else {
        const left = Math.max(0, (v.attemptsLeft ?? 1) - 1);
        v.attemptsLeft = left;
        if (left === 0) {
          await m.getRepository(ValidationEntity).update({ id }, { attemptsLeft: 0, otpHash: null });
          v.otpHash = null;
          await this.state.finish(m, v, { status: 'declined', reason: 'max_retries_exceeded' });
        } else {
          v.updatedAt = this.clock.now();
          await m.getRepository(ValidationEntity).update({ id }, { attemptsLeft: left, updatedAt: v.updatedAt });
        }
      }
      return presentValidation(v);
    });
  }
}
