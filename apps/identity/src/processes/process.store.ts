import {
  IDENTITY_EVENT_TYPES,
  ProcessCreatedPayload,
  ProcessFinishedPayload,
  ProcessProof,
  ProcessRecord,
  PROOF_STEP_TYPES,
  ProofStepType,
  TOPICS,
  ValidationType,
} from '@kyc/contracts';
import { Caller, Clock, JobQueueService, newId, OutboxService } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { FlowStep, FlowStepType } from '../flows/flow.entity';
import { attemptKey, ProcessEntity, ProcessStep } from './process.entity';
import { ProcessErrorCode, ProcessException } from './processes.exception';

export const PROCESS_TIMEOUT_QUEUE = 'identity.process-timeout';
export const CREATE_VALIDATION_QUEUE = 'identity.create-validation';
/** Validator steps whose validation this service creates in the validations service. */
export const VALIDATION_TYPE_OF_STEP: Partial<Record<FlowStepType, ValidationType>> = {
  email: 'email-verification',
  phone: 'phone-verification',
  document: 'document-validation',
  face: 'face-recognition',
};
export const PROCESS_PAGE_SIZE = 20;
/** When a validation is still unfinished at the timeout: 5 more minutes, up to 3 times. */
export const TIMEOUT_GRACE_MS = 5 * 60_000;
export const TIMEOUT_MAX_GRACES = 3;
export const READ_OWN_PERMISSION = 'identity.process.read.own';

export interface TimeoutJob {
  process_id: string;
  attempt: number;
}

export interface CreateValidationJob {
  process_id: string;
  step_id: string;
}

export const newVerificationId = () => newId('VER', 20);

/**
 * The process aggregate's writer, what every process use case shares: the new process with its
 * created event and first timer, loading a process the caller may see (locked for a change), the
 * state rules applied on save (success when every step succeeded, the finished event), failure
 * reasons, the durable timeout timer and the job that creates a validator step's validation.
 */
@Injectable()
export class ProcessStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
  ) {}

  /** Inserts a new process with its created event and its timeout timer, in one transaction. */
  insert(process: ProcessEntity): Promise<void> {
    return this.dataSource.transaction(async (m) => {
      await m.save(ProcessEntity, process);
      await this.outbox.add(m, {
        topic: TOPICS.processCreated,
        type: IDENTITY_EVENT_TYPES.processCreated,
        tenantId: process.tenantId,
        aggregateId: process.id,
        payload: { process: processRecord(process) } satisfies ProcessCreatedPayload,
      });
      await this.scheduleTimeout(m, process, 0);
    });
  }

  /** Runs `fn` on the locked process in one transaction (a temporary key sees only its own); `continuing` needs a pending process. */
  mutate(
    caller: Caller,
    id: string,
    continuing: boolean,
    fn: (m: EntityManager, p: ProcessEntity) => Promise<void>,
  ): Promise<ProcessEntity> {
    return this.dataSource.transaction(async (m) => {
      const p = await m.findOne(ProcessEntity, {
        where: { tenantId: caller.tenantId, id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!p || p.deletedAt || !this.visibleTo(caller, p))
        throw new ProcessException(ProcessErrorCode.ProcessNotFound, `process ${id} not found`);
      if (continuing) {
        if (p.status !== 'pending')
          throw new ProcessException(ProcessErrorCode.ProcessFinished, `process ${id} is already ${p.status}`);
      }
      await fn(m, p);
      return p;
    });
  }

  /** Saves the process; a pending process whose steps all succeeded becomes success; finishing publishes. */
  async settle(m: EntityManager, p: ProcessEntity): Promise<void> {
    const now = this.clock.now();
    if (p.status === 'pending' && p.steps.length > 0 && p.steps.every((s) => s.status === 'success'))
      p.status = 'success';
    const finishing = p.status !== 'pending' && !p.finishedAt;
    if (finishing) p.finishedAt = now;
    p.updatedAt = now;
    await m.save(ProcessEntity, p);
    if (finishing)
      await this.outbox.add(m, {
        topic: TOPICS.processFinished,
        type: IDENTITY_EVENT_TYPES.processFinished,
        tenantId: p.tenantId,
        aggregateId: p.id,
        payload: {
          process: processRecord(p),
          variables: p.variables,
          proofs: processProofs(p),
        } satisfies ProcessFinishedPayload,
      });
  }

  fail(p: ProcessEntity, failureStatus: string, declined?: string, expired?: string): void {
    p.status = 'failure';
    p.failureStatus = failureStatus;
    p.declinedReason = declined ?? (failureStatus === 'declined' ? 'validation_declined' : null);
    p.expiredReason = expired ?? null;
  }

  scheduleTimeout(m: EntityManager, p: ProcessEntity, attempt: number) {
    return this.jobs.enqueue<TimeoutJob>(
      m,
      PROCESS_TIMEOUT_QUEUE,
      { process_id: p.id, attempt },
      { tenantId: p.tenantId, runAt: p.deadline, dedupeKey: `process-timeout:${p.id}:${attempt}` },
    );
  }

  /** The job that creates the step's validation (once per attempt), in the caller's transaction. */
  enqueueValidation(m: EntityManager, p: ProcessEntity, step: ProcessStep) {
    return this.jobs.enqueue<CreateValidationJob>(
      m,
      CREATE_VALIDATION_QUEUE,
      { process_id: p.id, step_id: step.step_id },
      { tenantId: p.tenantId, dedupeKey: `create-validation:${attemptKey(p, step)}` },
    );
  }

  /** With `identity.process.read.own` a caller sees only the processes it created (its user or its key). */
  readsOwnOnly(caller: Caller): boolean {
    return caller.permissions.has(READ_OWN_PERMISSION);
  }

  /**
   * A temporary (web or sdk) key sees only the one process it created; a backend key every process
   * of its tenant, or with `identity.process.read.own` those of its user or key.
   */
  visibleTo(caller: Caller, p: ProcessEntity): boolean {
    if (caller.keyType !== 'backend') return p.keyId === caller.keyId;
    return !this.readsOwnOnly(caller) || p.userId === caller.userId || p.keyId === caller.keyId;
  }
}

export function toProcessStep(s: FlowStep): ProcessStep {
  return {
    step_id: s.step_id,
    type: s.type,
    verification_id: newVerificationId(),
    status: 'pending',
    expected_inputs:
      s.type === 'form'
        ? (s.fields ?? []).map((f) => f.name)
        : s.type === 'document'
          ? ['country', 'document_type']
          : s.type === 'email'
            ? ['email']
            : s.type === 'phone'
              ? ['phone_number']
              : [],
  };
}

export function processRecord(p: ProcessEntity): ProcessRecord {
  return {
    process_id: p.id,
    tenant_id: p.tenantId,
    flow_id: p.flowId,
    account_id: p.accountId,
    user_id: p.userId,
    status: p.status,
    ...(p.failureStatus ? { failure_status: p.failureStatus } : {}),
    ...(p.declinedReason ? { declined_reason: p.declinedReason } : {}),
    ...(p.expiredReason ? { expired_reason: p.expiredReason } : {}),
    creation_date: p.createdAt.toISOString(),
    update_date: p.updatedAt.toISOString(),
    ...(p.finishedAt ? { finished_date: p.finishedAt.toISOString() } : {}),
  };
}

/**
 * What the process proved: its validator steps that succeeded with their validation, and for the e-mail and
 * phone steps the address or number their code went to (never a typed-in variable).
 */
export function processProofs(p: ProcessEntity): ProcessProof[] {
  return p.steps.flatMap((s) =>
    s.status === 'success' && s.validation_id && (PROOF_STEP_TYPES as readonly string[]).includes(s.type)
      ? [
          {
            step_type: s.type as ProofStepType,
            validation_id: s.validation_id,
            ...(s.proven_value ? { value: s.proven_value } : {}),
            proven_date: s.completed_date ?? (p.finishedAt ?? p.updatedAt).toISOString(),
          },
        ]
      : [],
  );
}
