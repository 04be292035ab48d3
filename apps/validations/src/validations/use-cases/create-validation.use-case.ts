import { randomInt } from 'node:crypto';

import type { ValidationCreatedPayload } from '@kyc/contracts';
import { TOPICS, VALIDATION_EVENT_TYPES } from '@kyc/contracts';
import {
  Caller,
  Clock,
  CodeRequest,
  JobQueueService,
  OneTimeCodeService,
  OutboxService,
  ValidationFailedException,
  waitInWords,
} from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';

import { AccountsService } from '../../accounts/accounts.service';
import { EnrollmentsService } from '../../enrollments/enrollments.service';
import { MediaSlot } from '../../media/media.entity';
import { MediaService } from '../../media/media.service';
import { newId } from '../../shared/ids';
import { Secrets } from '../../shared/link-signer';
import { sidesOf } from '../../validator-config/document-catalog';
import { ValidatorConfigService } from '../../validator-config/validator-config.service';
import { validatorOf, ValidatorSettings } from '../../validator-config/validator-settings';
import { CreateValidationDto } from '../dto/create-validation.dto';
import { OTP_QUEUE } from '../otp-delivery.worker';
import { ValidationEntity } from '../validation.entity';
import { presentValidation, validationRecord } from '../validation.presenter';
import { ValidationInstructions } from '../validation-instructions';
import { ValidationStateService } from '../validation-state.service';
import { ValidationErrorCode, ValidationException } from '../validations.exception';
import { ValidationAdmission } from './validation-admission';

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
 * POST /v1/validations: every input rule, the tenant's admission rules, retries; then the
 * validation, its media slots, its OTP delivery job, its timeout job and its created event in one
 * transaction. Engines run later in ValidationRunner (a job), once the media are in.
 */
@Injectable()
export class CreateValidationUseCase {
  constructor(
    @InjectRepository(ValidationEntity) private readonly validations: Repository<ValidationEntity>,
    private readonly accounts: AccountsService,
    private readonly enrollments: EnrollmentsService,
    private readonly configs: ValidatorConfigService,
    private readonly media: MediaService,
    private readonly state: ValidationStateService,
    private readonly admission: ValidationAdmission,
    private readonly instructions: ValidationInstructions,
    private readonly outbox: OutboxService,
    private readonly jobs: JobQueueService,
    private readonly secrets: Secrets,
    private readonly codes: OneTimeCodeService,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, dto: CreateValidationDto, baseUrl: string, ipAddress?: string) {
    if (dto.country === 'ALL' && dto.type === 'document-validation' && dto.document_type !== 'passport')
      throw refuse('country', 'country ALL is only for document_type passport');
    const flow = dto.validator_settings as ValidatorSettings | undefined;
    if (flow) {
      const errors = this.configs.checkSettings(validatorOf(dto.type), flow, 'validator_settings.');
      if (errors.length) throw new ValidationFailedException(errors);
    }
    await this.admission.check(caller, dto);
    const settings = await this.configs.effective(caller.tenantId, dto.type, flow);
    if (dto.threshold !== undefined) settings.threshold = dto.threshold;
    settings.timeout = dto.timeout ?? settings.timeout;
    const now = this.clock.now();
    const subvalidations =
      dto.type === 'face-recognition' ? [...new Set(dto.subvalidations ?? ['similarity'])] : undefined;
    const otp = dto.type === 'email-verification' || dto.type === 'phone-verification';
    const codeRequest = otp ? await this.admitCode(caller, dto, ipAddress) : undefined;

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
          throw new ValidationException(
            ValidationErrorCode.EnrollmentRequired,
            `account ${account.accountId} has no ${dto.type} enrollment${dto.phone_type ? ` for phone_type ${dto.phone_type}` : ''}; enroll it first`,
            [{ field: dto.phone_type ? 'phone_type' : 'account_id', message: `no ${dto.type} enrollment` }],
          );
        enrollmentId = enrollment.id;
      }
      const retryNumber = dto.retry_of_id
        ? await this.checkRetry(m, caller, dto, account.accountId, settings, subvalidations)
        : 0;
      const id = newId('VLD');
      const attemptsLeft = otp ? (settings.allowed_retries ?? 2) + 1 : null;
      const code = codeRequest
        ? await this.codes.create(
            this.secrets.otp,
            { ...codeRequest, reference: id, ttlSeconds: settings.timeout, maxAttempts: attemptsLeft! },
            m,
          )
        : undefined;
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
        attemptsLeft,
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
        payload: { validation: validationRecord(validation, account) } satisfies ValidationCreatedPayload,
      });
      return presentValidation(validation, { instructions: this.instructions.of(validation, media, baseUrl) });
    });
  }

  /**
   * An OTP validation sends a code: to the enrollment's address, at most OTP_ISSUE_PER_ADDRESS_PER_HOUR
   * an hour per tenant; asked for from a person's device (a web or SDK key), at most OTP_ISSUE_PER_CLIENT_PER_HOUR
   * from its address (a backend's address serves many people: not limited); none while the account
   * is locked out for wrong guesses. 429 in the envelope with the wait in words.
   */
  private async admitCode(
    caller: Caller,
    dto: CreateValidationDto,
    ipAddress?: string,
  ): Promise<Omit<CodeRequest, 'reference' | 'ttlSeconds'> | undefined> {
    // Without an account the transaction refuses it (account_not_found).
    if (!dto.account_id) return undefined;
    const enrollment = await this.enrollments.findFor(
      this.validations.manager,
      caller.tenantId,
      dto.account_id,
      dto.type as 'email-verification' | 'phone-verification',
      dto.phone_type,
    );
    // No enrollment: the transaction refuses it (enrollment_required).
    const address = enrollment?.email ?? enrollment?.phoneNumber;
    if (!address) return undefined;
    // Counted per tenant: one tenant's codes never hold back another's for the same person.
    const request = {
      subject: `${caller.tenantId}:${dto.account_id}`,
      address: `${caller.tenantId}:${address}`,
      clientAddress: caller.keyType === 'backend' ? undefined : ipAddress,
    };
    const refusal = await this.codes.admit(this.secrets.otp, request);
    if (!refusal) return request;
    const wait = waitInWords(refusal.retryAfterSeconds);
    if (refusal.refused === 'subject')
      throw new ValidationException(ValidationErrorCode.TooManyAttempts, `too many attempts: try again in ${wait}`);
    throw new ValidationException(
      ValidationErrorCode.TooManyCodes,
      refusal.refused === 'address'
        ? `too many codes were sent to this ${dto.type === 'email-verification' ? 'e-mail address' : 'phone number'}: try again in ${wait}`
        : `too many codes were asked for from this client address: try again in ${wait}`,
    ).retryAfter(refusal.retryAfterSeconds);
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
      throw new ValidationException(
        ValidationErrorCode.RetryNotAllowed,
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
      throw new ValidationException(
        ValidationErrorCode.RetryNotAllowed,
        `the retry window (retry_ttl ${settings.retry_ttl} s) has passed`,
        [{ field: 'retry_of_id', message: 'retry_ttl has passed' }],
      );
    if (previous.retryNumber + 1 > allowed)
      throw new ValidationException(
        ValidationErrorCode.RetryNotAllowed,
        `no retries left (allowed_retries ${allowed})`,
        [{ field: 'retry_of_id', message: 'no retries left' }],
      );
    const already = await m
      .getRepository(ValidationEntity)
      .countBy({ tenantId: caller.tenantId, retryOfId: previous.id });
    if (already) throw refuse('retry_of_id', 'this validation was already retried');
    return previous.retryNumber + 1;
  }
}
