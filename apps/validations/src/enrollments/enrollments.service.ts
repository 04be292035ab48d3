import { EnrollmentFinishedPayload, PhoneType, TOPICS, VALIDATION_EVENT_TYPES } from '@kyc/contracts';
import {
  Caller,
  Clock,
  Job,
  JOB_COMPLETED,
  JobQueueService,
  OutboxService,
  ValidationFailedException,
} from '@kyc/platform';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Repository } from 'typeorm';

import { AccountsService } from '../accounts/accounts.service';
import { FACE_ENGINE, FaceEngine } from '../engines/engine.ports';
import { MediaService } from '../media/media.service';
import { newId } from '../shared/ids';
import { TenantFeaturesService } from '../tenant-features/tenant-features.service';
import { ValidatorConfigService } from '../validator-config/validator-config.service';
import { CreateEnrollmentDto } from './dto/create-enrollment.dto';
import { EnrollmentEntity } from './enrollment.entity';
import { enrollmentRecord } from './enrollment.presenter';
import { EnrollmentErrorCode, EnrollmentException } from './enrollments.exception';

export const ENROLLMENT_FACE_QUEUE = 'validations.enrollment-face';
const FACE_TYPES = new Set(['face-recognition', 'face-search']);

/**
 * Enrollments: the face, e-mail or phone later validations compare with, and the tenant's
 * blocklist of faces (face-search). Face photos arrive through an upload link; their descriptor is
 * computed by a job (the face model runs off the request).
 */
@Injectable()
export class EnrollmentsService implements OnModuleInit {
  private readonly logger = new Logger('enrollments');

  constructor(
    @InjectRepository(EnrollmentEntity) private readonly enrollments: Repository<EnrollmentEntity>,
    private readonly dataSource: DataSource,
    private readonly accounts: AccountsService,
    private readonly media: MediaService,
    private readonly features: TenantFeaturesService,
    private readonly configs: ValidatorConfigService,
    private readonly outbox: OutboxService,
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
    @Inject(FACE_ENGINE) private readonly face: FaceEngine,
  ) {}

  onModuleInit(): void {
    this.media.registerOwner('enrollment', {
      acceptsUntil: async (m, id) => {
        const e = await m.getRepository(EnrollmentEntity).findOneBy({ id });
        return e && e.status === 'pending' && !e.faceDescriptor ? (e.uploadExpiresAt ?? undefined) : undefined;
      },
      complete: async (m, tenantId, id) => {
        await this.jobs.enqueue(m, ENROLLMENT_FACE_QUEUE, { enrollment_id: id }, { tenantId, maxAttempts: 3 });
      },
      visible: async (m, id) => (await m.getRepository(EnrollmentEntity).countBy({ id })) > 0,
    });
    this.jobs.register<{ enrollment_id: string }>(ENROLLMENT_FACE_QUEUE, (job) => this.readFace(job), {
      concurrency: 1,
    });
  }

  async create(
    caller: Caller,
    dto: CreateEnrollmentDto,
    queryAccountId: string | undefined,
    baseUrl: string,
  ): Promise<{ enrollment: EnrollmentEntity; link?: string }> {
    if (dto.confirmation === 'none') await this.checkConfirmationNone(caller);
    const now = this.clock.now();
    const settings = await this.configs.effective(caller.tenantId, 'face-recognition');
    return this.dataSource.transaction(async (m) => {
      const account = await this.accounts.getOrCreate(m, caller.tenantId, dto.account_id ?? queryAccountId);
      let country = dto.country ?? null;
      if (dto.type === 'phone-verification') {
        country ??= account.country;
        if (!country || !['CO', 'CL', 'MX', 'BR', 'VE', 'PE', 'EC', 'AR', 'US'].includes(country))
          throw new ValidationFailedException([
            {
              field: 'country',
              message:
                'country is required for phone-verification (CO, CL, MX, BR, VE, PE, EC, AR, US) unless the account has one of them',
            },
          ]);
        const taken = await m.getRepository(EnrollmentEntity).findOneBy({
          tenantId: caller.tenantId,
          accountId: account.accountId,
          type: 'phone-verification',
          phoneType: dto.phone_type!,
          status: In(['pending', 'success']),
        });
        if (taken)
          throw new EnrollmentException(
            EnrollmentErrorCode.PhoneTypeEnrolled,
            `the account already has a ${dto.phone_type} phone number; each number needs a different phone_type`,
            [{ field: 'phone_type', message: 'phone_type already enrolled for this account' }],
          );
      }
      const face = FACE_TYPES.has(dto.type);
      const enrollment = this.enrollments.create({
        id: newId('ENR'),
        tenantId: caller.tenantId,
        accountId: account.accountId,
        type: dto.type,
        status: 'pending',
        reason: null,
        country,
        phoneNumber: dto.phone_number ?? null,
        phoneType: dto.phone_type ?? null,
        email: dto.email ?? null,
        confirmation: dto.confirmation ?? null,
        fraudReason: dto.fraud_reason ?? null,
        faceDescriptor: null,
        validationId: null,
        uploadExpiresAt: face ? new Date(now.getTime() + (settings.enrollment_timeout ?? 300) * 1000) : null,
        createdAt: now,
        updatedAt: now,
        finishedAt: null,
      });
      await m.getRepository(EnrollmentEntity).insert(enrollment);
      if (!face) return { enrollment };
      const [slot] = await this.media.createSlots(m, caller.tenantId, 'enrollment', enrollment.id, ['face_photo']);
      return { enrollment, link: this.media.uploadLink(baseUrl, slot, enrollment.uploadExpiresAt!) };
    });
  }

  async get(caller: Caller, id: string): Promise<EnrollmentEntity> {
    const e = await this.enrollments.findOneBy({ tenantId: caller.tenantId, id });
    if (!e) throw new EnrollmentException(EnrollmentErrorCode.EnrollmentNotFound, `enrollment ${id} not found`);
    return e;
  }

  async remove(caller: Caller, id: string): Promise<void> {
    await this.get(caller, id);
    await this.dataSource.transaction(async (m) => {
      await m.getRepository(EnrollmentEntity).delete({ tenantId: caller.tenantId, id });
      await this.media.deleteOf(m, 'enrollment', [id]);
    });
  }

  async listOfAccount(caller: Caller, accountId: string): Promise<EnrollmentEntity[]> {
    await this.accounts.get(caller, accountId);
    return this.enrollments.find({
      where: { tenantId: caller.tenantId, accountId },
      order: { createdAt: 'DESC' },
      take: 200,
    });
  }

  /** The enrollment a validation of this type compares with (the latest usable one). */
  findFor(
    manager: EntityManager,
    tenantId: string,
    accountId: string,
    type: 'face-recognition' | 'email-verification' | 'phone-verification',
    phoneType?: string,
  ): Promise<EnrollmentEntity | null> {
    return manager.getRepository(EnrollmentEntity).findOne({
      where: {
        tenantId,
        accountId,
        type,
        status: In(['pending', 'success']),
        ...(phoneType ? { phoneType: phoneType as PhoneType } : {}),
      },
      order: { createdAt: 'DESC' },
    });
  }

  /** The tenant's blocked faces (face-search enrollments with a descriptor), optionally of one country (and ALL). */
  blocklist(tenantId: string, country?: string): Promise<EnrollmentEntity[]> {
    return this.enrollments.find({
      where: {
        tenantId,
        type: 'face-search',
        status: 'success',
        ...(country && country !== 'ALL' ? { country: In([country, 'ALL']) } : {}),
      },
    });
  }

  /** Ends a pending enrollment (validated, or its face read) and publishes enrollment.finished. */
  async finish(
    m: EntityManager,
    enrollment: EnrollmentEntity,
    status: 'success' | 'failure',
    reason: string | null,
    validationId: string | null,
  ): Promise<void> {
    const now = this.clock.now();
    Object.assign(enrollment, { status, reason, validationId, updatedAt: now, finishedAt: now });
    await m
      .getRepository(EnrollmentEntity)
      .update({ id: enrollment.id }, { status, reason, validationId, updatedAt: now, finishedAt: now });
    await this.outbox.add(m, {
      topic: TOPICS.enrollmentFinished,
      type: VALIDATION_EVENT_TYPES.enrollmentFinished,
      tenantId: enrollment.tenantId,
      aggregateId: enrollment.id,
      payload: { enrollment: enrollmentRecord(enrollment) } satisfies EnrollmentFinishedPayload,
    });
  }

  private async checkConfirmationNone(caller: Caller): Promise<void> {
    const features = await this.features.get(caller.tenantId);
    const since = features.confirmationNoneAuthorizedAt;
    if (!since)
      throw new EnrollmentException(
        EnrollmentErrorCode.ConfirmationNotAuthorized,
        'confirmation=none needs an authorization of this account; ask support to enable it',
        [{ field: 'confirmation', message: 'confirmation=none is not authorized for this account' }],
      );
    if (!caller.keyIssuedAt || caller.keyIssuedAt.getTime() < Math.floor(since.getTime() / 1000) * 1000)
      throw new EnrollmentException(
        EnrollmentErrorCode.ConfirmationNotAuthorized,
        `confirmation=none applies only to API keys created after its authorization (${since.toISOString()}); create a new key`,
        [{ field: 'confirmation', message: 'this API key was created before confirmation=none was authorized' }],
      );
  }

  /** Job: reads the enrolled face (largest face of the photo) off the request. */
  private async readFace(job: Job<{ enrollment_id: string }>) {
    const id = job.payload.enrollment_id;
    const enrollment = await this.enrollments.findOneBy({ id });
    if (!enrollment || enrollment.faceDescriptor || enrollment.status !== 'pending') return undefined;
    const { face_photo: photo } = await this.media.read('enrollment', id);
    if (!photo) return undefined;
    const description = await this.face.describe(photo);
    await this.dataSource.transaction(async (m) => {
      const [largest] = description.faces;
      if (!largest) {
        await this.finish(m, enrollment, 'failure', 'face_not_detected', null);
      } else {
        await m
          .getRepository(EnrollmentEntity)
          .update({ id }, { faceDescriptor: largest.descriptor, updatedAt: this.clock.now() });
        enrollment.faceDescriptor = largest.descriptor;
        // Blocked faces and confirmation=none enrollments need no validation.
        if (enrollment.type === 'face-search' || enrollment.confirmation === 'none')
          await this.finish(m, enrollment, 'success', null, null);
      }
      await this.jobs.complete(m, job);
    });
    this.logger.debug({ enrollment_id: id, faces: description.faces.length, msg: 'enrolled face read' });
    return JOB_COMPLETED;
  }
}
