import type { DeclinedReason } from '@kyc/contracts';
import { Clock, Job, JOB_COMPLETED, JobQueueService } from '@kyc/platform';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { ValidatorAccountEntity } from '../accounts/validator-account.entity';
import { ValidationsConfig } from '../config/validations.config';
import { DOCUMENT_ENGINE, DocumentEngine, FACE_ENGINE, FaceDescription, FaceEngine } from '../engines/engine.ports';
import { EnrollmentEntity } from '../enrollments/enrollment.entity';
import { EnrollmentsService } from '../enrollments/enrollments.service';
import { MediaService } from '../media/media.service';
import { documentSwitches } from '../validator-config/validator-settings';
import { phraseSimilarity, SPEECH_MIN_MATCH, SpeechRecognizer } from './speech/speech-recognizer';
import { ValidationEntity, ValidationOutcome } from './validation.entity';
import { PROCESS_QUEUE } from './validation-queues';
import { ValidationStateService } from './validation-state.service';

type Sub = ValidationOutcome['subvalidations'][number];
const round = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * Runs the engines of a validation whose media are in, as a job (never on the request): document
 * reading and checks, face similarity, passive liveness, speech match and blocklist search. Then
 * the validation ends, or waits in the manual review queue when the validator uses it.
 */
@Injectable()
export class ValidationRunner implements OnModuleInit {
  private readonly logger = new Logger('validation-runner');

  constructor(
    @InjectRepository(ValidationEntity) private readonly validations: Repository<ValidationEntity>,
    @InjectRepository(ValidatorAccountEntity) private readonly accounts: Repository<ValidatorAccountEntity>,
    @InjectRepository(EnrollmentEntity) private readonly enrollmentRows: Repository<EnrollmentEntity>,
    @Inject(DOCUMENT_ENGINE) private readonly documents: DocumentEngine,
    @Inject(FACE_ENGINE) private readonly face: FaceEngine,
    private readonly speech: SpeechRecognizer,
    private readonly enrollments: EnrollmentsService,
    private readonly media: MediaService,
    private readonly state: ValidationStateService,
    private readonly jobs: JobQueueService,
    private readonly config: ValidationsConfig,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.jobs.register<{ validation_id: string }>(PROCESS_QUEUE, (job) => this.run(job), {
      concurrency: this.config.VALIDATIONS_ENGINE_CONCURRENCY,
      backoffMs: (n) => 1_000 * n,
      // The engines run on their own threads below normal priority: a busy API holds back no validation.
      yields: false,
    });
  }

  private async run(job: Job<{ validation_id: string }>) {
    const v = await this.validations.findOneBy({ id: job.payload.validation_id });
    if (!v || v.status !== 'pending' || v.deletedAt || v.manualReviewStatus === 'pending') return undefined;
    let outcome: ValidationOutcome;
    try {
      outcome = await this.evaluate(v);
    } catch (err) {
      // A file the engine cannot decode will not decode on a retry either.
      const undecodable = /decod|corrupt|unsupported image|invalid image|not an image/i.test(
        String((err as Error)?.message),
      );
      if (!undecodable && job.attempt < job.maxAttempts) throw err;
      this.logger.error({ err: err as Error, validation_id: v.id, msg: 'engine failed; the validation fails' });
      await this.state.transaction(async (m) => {
        const locked = await this.state.lock(m, v.id);
        if (locked?.status === 'pending' && !locked.deletedAt)
          await this.state.finish(m, locked, {
            status: 'system_error',
            reason: undecodable ? 'invalid_media' : 'engine_error',
          });
        await this.jobs.complete(m, job);
      });
      return JOB_COMPLETED;
    }
    await this.state.transaction(async (m) => {
      const locked = await this.state.lock(m, v.id);
      if (locked?.status === 'pending' && !locked.deletedAt) await this.conclude(m, locked, outcome);
      await this.jobs.complete(m, job);
    });
    return JOB_COMPLETED;
  }

  /** Ends the validation with the engines' outcome, or queues it for manual review. */
  private async conclude(
    m: Parameters<ValidationStateService['finish']>[0],
    v: ValidationEntity,
    outcome: ValidationOutcome,
  ) {
    const reviewable = v.type === 'document-validation' || v.type === 'face-recognition';
    if (reviewable && v.settings.use_manual_review === 'enabled') {
      const available = this.config.reviewAvailableAt(this.clock.now());
      if (available || !v.inputs.skip_unavailable_manual_review) {
        await m
          .getRepository(ValidationEntity)
          .update({ id: v.id }, { outcome, manualReviewStatus: 'pending', updatedAt: this.clock.now() });
        return;
      }
      return this.end(m, v, outcome, 'unavailable');
    }
    return this.end(m, v, outcome);
  }

  private end(
    m: Parameters<ValidationStateService['finish']>[0],
    v: ValidationEntity,
    outcome: ValidationOutcome,
    manualReviewStatus?: 'unavailable',
  ) {
    return outcome.status === 'success'
      ? this.state.finish(m, v, { status: 'success', outcome, manualReviewStatus })
      : this.state.finish(m, v, {
          status: 'declined',
          reason: outcome.declinedReason ?? 'unreadable_document',
          outcome,
          manualReviewStatus,
        });
  }

  async evaluate(v: ValidationEntity): Promise<ValidationOutcome> {
    const files = await this.media.read('validation', v.id);
    switch (v.type) {
      case 'document-validation':
        return this.document(v, files.front, files.reverse);
      case 'face-recognition':
        return this.faceRecognition(v, files.face_photo!, files.video);
      case 'face-search':
        return this.faceSearch(v, files.face_photo!);
      default:
        throw new Error(`${v.type} has no engine`);
    }
  }

  private async document(v: ValidationEntity, front?: Buffer, reverse?: Buffer): Promise<ValidationOutcome> {
    const account = await this.accounts.findOneBy({ tenantId: v.tenantId, accountId: v.accountId });
    const switches = documentSwitches(v.settings, v.country!, v.documentType!);
    const result = await this.documents.validate({
      country: v.country!,
      documentType: v.documentType!,
      front,
      reverse,
      expected: {
        firstName: account?.firstName ?? undefined,
        lastName: account?.lastName ?? undefined,
        documentNumber: account?.documentNumber ?? undefined,
      },
      checks: {
        manipulation: switches.manipulation_detection === 'enabled',
        photoOfPhoto: switches.photo_of_photo_detection === 'enabled',
        photocopy: switches.photocopy_detection === 'enabled',
        dataConsistency: switches.data_consistency === 'enabled',
        governmentDatabase: switches.government_database === 'enabled',
      },
    });
    const x = result.extracted;
    return {
      status: result.status,
      declinedReason:
        result.status === 'failure' ? ((result.declinedReason as DeclinedReason) ?? 'unreadable_document') : undefined,
      subvalidations: result.subvalidations,
      details: {
        document_details: {
          document_number: x.documentNumber,
          first_name: x.firstName,
          last_name: x.lastName,
          date_of_birth: x.dateOfBirth,
          expiration_date: x.expirationDate,
          nationality: x.nationality,
          gender: x.sex,
          issuing_country: x.issuingCountry,
          mrz: x.mrz,
        },
        ...(v.inputs.custom_type ? { background_check: { custom_type: String(v.inputs.custom_type) } } : {}),
      },
    };
  }

  private async faceRecognition(v: ValidationEntity, photo: Buffer, video?: Buffer): Promise<ValidationOutcome> {
    const requested = (v.inputs.subvalidations as string[] | undefined) ?? ['similarity'];
    const threshold = v.settings.threshold ?? 0.65;
    const description = await this.face.describe(photo);
    const [largest] = description.faces;
    const subs: Sub[] = [];
    const enrollment = v.enrollmentId ? await this.enrollmentRows.findOneBy({ id: v.enrollmentId }) : null;
    let confidence: number | undefined;
    if (requested.includes('similarity')) {
      if (!largest) subs.push({ name: 'similarity', status: 'failure', reason: 'face_not_detected' });
      else if (!enrollment?.faceDescriptor)
        subs.push({ name: 'similarity', status: 'failure', reason: 'no_enrolled_face' });
      else {
        confidence = round(this.face.similarity(largest.descriptor, enrollment.faceDescriptor));
        subs.push({
          name: 'similarity',
          status: confidence >= threshold ? 'success' : 'failure',
          ...(confidence >= threshold ? {} : { reason: 'similarity_threshold_not_passed' }),
          details: { confidence_score: confidence, threshold },
        });
      }
    }
    if (requested.includes('passive_liveness')) subs.push(this.liveness(description));
    if (requested.includes('speech_match')) subs.push(await this.speechMatch(v, video));
    if (v.settings.include_face_search) subs.push(await this.searchBlocklist(v.tenantId, undefined, description));
    const failed = subs.find((s) => s.status === 'failure');
    const statusOf = (name: string) => subs.find((s) => s.name === name)?.status;
    return {
      status: failed ? 'failure' : 'success',
      declinedReason: failed?.reason as DeclinedReason | undefined,
      subvalidations: subs,
      details: {
        face_recognition_validations: {
          similarity_status: statusOf('similarity'),
          confidence_score: confidence,
          passive_liveness_status: statusOf('passive_liveness'),
          liveness_score: description.liveness?.score,
          speech_match_status: statusOf('speech_match'),
          face_search_status: statusOf('face_search'),
          faces_detected: description.faces.length,
        },
      },
    };
  }

  private async faceSearch(v: ValidationEntity, photo: Buffer): Promise<ValidationOutcome> {
    const description = await this.face.describe(photo);
    const sub = await this.searchBlocklist(v.tenantId, v.country ?? undefined, description, v.settings.threshold);
    return {
      status: sub.status === 'failure' ? 'failure' : 'success',
      declinedReason: sub.status === 'failure' ? (sub.reason as DeclinedReason) : undefined,
      subvalidations: [sub],
      details: { face_search_validations: { face_search_status: sub.status, ...sub.details } },
    };
  }

  private liveness(description: FaceDescription): Sub {
    if (!description.faces.length) return { name: 'passive_liveness', status: 'failure', reason: 'face_not_detected' };
    const l = description.liveness;
    if (!l) return { name: 'passive_liveness', status: 'failure', reason: 'passive_liveness_failed' };
    return {
      name: 'passive_liveness',
      status: l.passed ? 'success' : 'failure',
      ...(l.passed ? {} : { reason: 'passive_liveness_failed' }),
      details: { liveness_score: l.score, method: l.method },
    };
  }

  private async speechMatch(v: ValidationEntity, video?: Buffer): Promise<Sub> {
    const heard = video ? await this.speech.transcribe(video) : undefined;
    const token = String(v.inputs.speech_token ?? '');
    const min = SPEECH_MIN_MATCH[String(v.inputs.speech_precision)] ?? SPEECH_MIN_MATCH.high;
    const score = heard ? round(phraseSimilarity(heard, token)) : 0;
    return {
      name: 'speech_match',
      status: score >= min ? 'success' : 'failure',
      ...(score >= min ? {} : { reason: 'speech_not_matched' }),
      details: { speech_score: score, minimum: min },
    };
  }

  /** Compares the largest face with the tenant's blocked faces (of the country and ALL). */
  private async searchBlocklist(
    tenantId: string,
    country: string | undefined,
    description: FaceDescription,
    threshold = 0.65,
  ): Promise<Sub> {
    const [largest] = description.faces;
    if (!largest) return { name: 'face_search', status: 'failure', reason: 'face_not_detected' };
    let best: { enrollment: EnrollmentEntity; score: number } | undefined;
    for (const blocked of await this.enrollments.blocklist(tenantId, country)) {
      if (!blocked.faceDescriptor) continue;
      const score = this.face.similarity(largest.descriptor, blocked.faceDescriptor);
      if (!best || score > best.score) best = { enrollment: blocked, score };
    }
    if (best && best.score >= threshold)
      return {
        name: 'face_search',
        status: 'failure',
        reason: 'face_found_in_blocklist',
        details: {
          matched_enrollment_id: best.enrollment.id,
          matched_account_id: best.enrollment.accountId,
          fraud_reason: best.enrollment.fraudReason,
          confidence_score: round(best.score),
        },
      };
    return { name: 'face_search', status: 'success', details: { confidence_score: best ? round(best.score) : 0 } };
  }
}
