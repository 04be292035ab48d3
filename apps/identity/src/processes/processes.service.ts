import { randomUUID } from 'node:crypto';

import {
  IDENTITY_EVENT_TYPES,
  ProcessCreatedPayload,
  ProcessFinishedPayload,
  ProcessRecord,
  ProcessStatus,
  TOPICS,
  ValidationType,
} from '@kyc/contracts';
import {
  Caller,
  Clock,
  Job,
  JOB_COMPLETED,
  JobQueueService,
  OutboxService,
  Page,
  paginate,
  ValidationFailedException,
} from '@kyc/platform';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, Repository } from 'typeorm';

import { ApiKeysService } from '../api-keys/api-keys.service';
import { FlowStep, FlowStepType, VALIDATOR_STEP_TYPES } from '../flows/flow.entity';
import { FlowsService } from '../flows/flows.service';
import {
  AddVerificationDto,
  BackDto,
  ListProcessesQuery,
  OverrideStatusDto,
  StepInputDto,
  UpdateProcessDto,
} from './dto/process.dto';
import { ProcessEntity, ProcessStep } from './process.entity';
import { ProcessErrorCode, ProcessException } from './processes.exception';
import { CreatedValidation, ValidationRefused, ValidationsClient } from './validations.client';

export const PROCESS_TIMEOUT_QUEUE = 'identity.process-timeout';
export const CREATE_VALIDATION_QUEUE = 'identity.create-validation';
/** Validator steps whose validation this service creates in the validations service. */
const VALIDATION_TYPE_OF_STEP: Partial<Record<FlowStepType, ValidationType>> = {
  document: 'document-validation',
  face: 'face-recognition',
};
export const PROCESS_PAGE_SIZE = 20;
/** When a validation is still unfinished at the timeout: 5 more minutes, up to 3 times. */
export const TIMEOUT_GRACE_MS = 5 * 60_000;
export const TIMEOUT_MAX_GRACES = 3;
export const READ_OWN_PERMISSION = 'identity.process.read.own';
const TWO_MONTHS_MS = 62 * 24 * 3600_000;

interface CreateValidationJob {
  process_id: string;
  step_id: string;
}

interface TimeoutJob {
  process_id: string;
  attempt: number;
}

/** Identity-verification processes: steps, states, timers, overrides (spec 2, Identity process). */
@Injectable()
export class ProcessesService implements OnModuleInit {
  private readonly logger = new Logger('processes');

  constructor(
    @InjectRepository(ProcessEntity) private readonly processes: Repository<ProcessEntity>,
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
    private readonly flows: FlowsService,
    private readonly apiKeys: ApiKeysService,
    private readonly validations: ValidationsClient,
  ) {}

  onModuleInit(): void {
    this.jobs.register<TimeoutJob>(PROCESS_TIMEOUT_QUEUE, (job, m) => this.onTimeout(m, job.payload), {
      transactional: true,
    });
    this.jobs.register<CreateValidationJob>(CREATE_VALIDATION_QUEUE, (job, m) => this.createValidation(job, m), {
      concurrency: 4,
    });
  }

  /** POST /v1/processes: the caller's temporary web key, bound to a flow, starts its one process. */
  async create(caller: Caller): Promise<ProcessEntity> {
    if (caller.keyType === 'backend' || caller.grant !== 'digital-identity' || !caller.flowId)
      throw new ProcessException(
        ProcessErrorCode.WebKeyRequired,
        'a process is created with a temporary web key of the digital-identity grant bound to a flow',
      );
    const flow = await this.flows.get(caller.tenantId, caller.flowId);
    const key = await this.apiKeys.get(caller.tenantId, caller.keyId);
    const now = this.clock.now();
    const process = this.processes.create({
      id: `IDP${randomUUID().replace(/-/g, '')}`,
      tenantId: caller.tenantId,
      flowId: flow.id,
      keyId: caller.keyId,
      userId: caller.userId,
      accountId: key.accountId ?? `ACC${randomUUID().replace(/-/g, '')}`,
      status: 'pending',
      failureStatus: null,
      declinedReason: null,
      expiredReason: null,
      currentStep: 0,
      steps: flow.steps.map((s) => this.toProcessStep(s)),
      variables: {},
      phoneNumber: key.phones?.[0] ?? null,
      deviceInfo: null,
      overrideStatus: null,
      overrideStatusHistory: [],
      timeoutAttempts: 0,
      deadline: new Date(now.getTime() + flow.timeoutSeconds * 1000),
      finishedAt: null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    try {
      await this.dataSource.transaction(async (m) => {
        await m.save(ProcessEntity, process);
        await this.outbox.add(m, {
          topic: TOPICS.processCreated,
          type: IDENTITY_EVENT_TYPES.processCreated,
          tenantId: process.tenantId,
          aggregateId: process.id,
          payload: { process: this.record(process) } satisfies ProcessCreatedPayload,
        });
        await this.scheduleTimeout(m, process, 0);
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505')
        throw new ProcessException(
          ProcessErrorCode.KeyAlreadyUsed,
          'this key already started a process: one key, one process',
        );
      throw err;
    }
    return process;
  }

  async list(caller: Caller, q: ListProcessesQuery): Promise<Page<ProcessEntity>> {
    if ((q.start_date === undefined) !== (q.end_date === undefined))
      throw new ValidationFailedException([
        {
          field: q.start_date === undefined ? 'start_date' : 'end_date',
          message: 'start_date and end_date go together',
        },
      ]);
    const qb = this.processes
      .createQueryBuilder('p')
      .where('p.tenantId = :tenantId AND p.deletedAt IS NULL', { tenantId: caller.tenantId });
    if (q.start_date && q.end_date) {
      const start = new Date(q.start_date);
      const end = new Date(q.end_date);
      if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()))
        throw new ValidationFailedException([{ field: 'start_date', message: 'dates must be valid' }]);
      if (end < start)
        throw new ValidationFailedException([{ field: 'end_date', message: 'end_date must not precede start_date' }]);
      if (end.getTime() - start.getTime() > TWO_MONTHS_MS || addMonths(start, 2) < end)
        throw new ValidationFailedException([{ field: 'end_date', message: 'the date range is at most 2 months' }]);
      qb.andWhere('p.createdAt >= :start AND p.createdAt <= :end', { start, end });
    }
    if (q.status) qb.andWhere('p.status = :status', { status: q.status });
    if (q.failure_status) qb.andWhere('p.failureStatus = :fs', { fs: q.failure_status });
    if (q.declined_reason?.length) qb.andWhere('p.declinedReason IN (:...dr)', { dr: q.declined_reason });
    if (q.search) {
      const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(
        new Brackets((w) => {
          w.where('p.id = :exact OR p.flowId = :exact', { exact: q.search })
            .orWhere('p.accountId ILIKE :like', { like })
            .orWhere('p.phoneNumber ILIKE :like')
            .orWhere(`p.variables->>'document_number' ILIKE :like`)
            .orWhere(`p.variables->>'cell_phone' ILIKE :like`)
            .orWhere(`p.variables->>'first_name' ILIKE :like`)
            .orWhere(`p.variables->>'last_name' ILIKE :like`);
        }),
      );
    }
    if (this.readsOwnOnly(caller)) qb.andWhere('p.userId = :own', { own: caller.userId });
    return paginate(qb, { startKey: q.start_key, limit: PROCESS_PAGE_SIZE });
  }

  async get(caller: Caller, id: string): Promise<ProcessEntity> {
    const p = await this.processes.findOneBy({ tenantId: caller.tenantId, id });
    if (!p || p.deletedAt || (this.readsOwnOnly(caller) && p.userId !== caller.userId && p.keyId !== caller.keyId))
      throw new ProcessException(ProcessErrorCode.ProcessNotFound, `process ${id} not found`);
    return p;
  }

  /** POST /v1/processes/{id}: validates the current step's input and advances the process. */
  submitStep(caller: Caller, id: string, dto: StepInputDto): Promise<ProcessEntity> {
    return this.mutate(caller, id, true, async (m, p) => {
      const step = p.steps[p.currentStep];
      if (!step || step.status !== 'pending')
        throw new ProcessException(ProcessErrorCode.WrongStep, 'the process has no step waiting for input');
      const mismatch = (['step_id', 'verification_id', 'type'] as const).filter((f) => dto[f] !== step[f]);
      if (mismatch.length)
        throw new ProcessException(
          ProcessErrorCode.WrongStep,
          `the input is not for the current step ${step.step_id}`,
          mismatch.map((field) => ({ field, message: `${field} must be ${step[field]}` })),
        );
      const given = new Map((dto.expected_inputs ?? []).map((i) => [i.name, i.value]));
      const unknown = [...given.keys()].filter((k) => !step.expected_inputs.includes(k));
      const flow = await this.flows.get(p.tenantId, p.flowId).catch(() => null);
      const required = step.type === 'form' ? this.requiredFields(flow?.steps, step) : step.expected_inputs;
      const missing = required.filter((k) => !given.get(k)?.trim());
      if (unknown.length || missing.length)
        throw new ProcessException(ProcessErrorCode.WrongStep, 'the expected inputs do not match the step', [
          ...missing.map((k) => ({ field: `expected_inputs.${k}`, message: `${k} is required` })),
          ...unknown.map((k) => ({ field: `expected_inputs.${k}`, message: `${k} is not an input of this step` })),
        ]);
      for (const [k, v] of given) p.variables[k] = v.trim();
      if (VALIDATOR_STEP_TYPES.includes(step.type)) {
        step.status = 'awaiting_validation';
        if (VALIDATION_TYPE_OF_STEP[step.type])
          await this.jobs.enqueue<CreateValidationJob>(
            m,
            CREATE_VALIDATION_QUEUE,
            { process_id: p.id, step_id: step.step_id },
            { tenantId: p.tenantId, dedupeKey: `create-validation:${p.id}:${step.verification_id}` },
          );
      } else {
        step.status = 'success';
        step.completed_date = this.clock.now().toISOString();
        p.currentStep += 1;
      }
      await this.settle(m, p);
    });
  }

  /** A validation of a validator step finished (validations.validation.finished). */
  async onValidationFinished(
    m: EntityManager,
    processId: string,
    validationId: string,
    outcome: { status: string; declined_reason?: string; expired_reason?: string },
  ): Promise<void> {
    const p = await m.findOne(ProcessEntity, { where: { id: processId }, lock: { mode: 'pessimistic_write' } });
    if (!p || p.status !== 'pending' || p.deletedAt) return;
    const step = p.steps.find((s) => s.validation_id === validationId && s.status === 'awaiting_validation');
    if (!step) return;
    step.completed_date = this.clock.now().toISOString();
    if (outcome.status === 'success') {
      step.status = 'success';
      p.currentStep = Math.max(p.currentStep, p.steps.indexOf(step) + 1);
    } else {
      step.status = 'failure';
      step.declined_reason = outcome.declined_reason;
      step.expired_reason = outcome.expired_reason;
      this.fail(p, outcome.expired_reason ? 'expired' : 'declined', outcome.declined_reason, outcome.expired_reason);
    }
    await this.settle(m, p);
  }

  /** Records the validation a validator step created, so its finish event finds the step. */
  attachValidation(caller: Caller, id: string, stepId: string, validationId: string): Promise<ProcessEntity> {
    return this.mutate(caller, id, true, async (m, p) => {
      const step = p.steps.find((s) => s.step_id === stepId);
      if (!step) throw new ProcessException(ProcessErrorCode.WrongStep, `no step ${stepId}`);
      step.validation_id = validationId;
      await this.settle(m, p);
    });
  }

  /**
   * Job: creates the validation of an awaiting validator step in the validations service (outside
   * any transaction; idempotent by the step's verification id), then records it on the step.
   */
  private async createValidation(job: Job<CreateValidationJob>, manager: EntityManager) {
    const p = await manager.findOneBy(ProcessEntity, { id: job.payload.process_id });
    const step = p?.steps.find((s) => s.step_id === job.payload.step_id);
    const type = step && VALIDATION_TYPE_OF_STEP[step.type];
    if (!p || !step || !type || p.status !== 'pending' || step.status !== 'awaiting_validation' || step.validation_id)
      return;
    const flow = await this.flows.get(p.tenantId, p.flowId).catch(() => null);
    const settings = flow?.steps.find((s) => s.step_id === step.step_id)?.validator_settings;
    let created: CreatedValidation | undefined;
    try {
      created = await this.validations.create(p.tenantId, p.userId, `${p.id}:${step.verification_id}`, {
        type,
        user_authorized: true,
        account_id: p.accountId,
        ...(type === 'document-validation'
          ? { country: p.variables.country ?? 'ALL', document_type: p.variables.document_type ?? 'national-id' }
          : {}),
        process_id: p.id,
        flow_id: p.flowId,
        ...(settings ? { validator_settings: settings } : {}),
      });
    } catch (err) {
      if (!(err instanceof ValidationRefused)) throw err;
      this.logger.warn({ msg: 'validation refused', process_id: p.id, status: err.status, body: err.body });
    }
    await this.dataSource.transaction(async (m) => {
      const locked = await m.findOne(ProcessEntity, { where: { id: p.id }, lock: { mode: 'pessimistic_write' } });
      const s = locked?.steps.find((x) => x.step_id === step.step_id);
      if (locked && s && locked.status === 'pending' && s.status === 'awaiting_validation') {
        if (created) {
          s.validation_id = created.validation_id;
          if (created.instructions) s.instructions = created.instructions;
        } else {
          s.status = 'failure';
          this.fail(locked, 'system_error', 'validation_refused');
        }
        await this.settle(m, locked);
      }
      await this.jobs.complete(m, job);
    });
    return JOB_COMPLETED;
  }

  update(caller: Caller, id: string, dto: UpdateProcessDto): Promise<ProcessEntity> {
    return this.mutate(caller, id, true, async (m, p) => {
      if (dto.phone_number !== undefined) p.phoneNumber = dto.phone_number;
      if (dto.device_info !== undefined) p.deviceInfo = dto.device_info;
      await this.settle(m, p);
    });
  }

  /** POST /back: one step back; with retry_step the previous step is verified again with the same inputs. */
  back(caller: Caller, id: string, dto: BackDto): Promise<ProcessEntity> {
    return this.mutate(caller, id, true, async (m, p) => {
      if (p.currentStep === 0)
        throw new ProcessException(ProcessErrorCode.NoStepBack, 'the process is on its first step');
      p.currentStep -= 1;
      const step = p.steps[p.currentStep];
      // retry_step: the same verification (id and expected inputs) is verified again; otherwise a new one.
      if (dto.retry_step !== true) step.verification_id = newVerificationId();
      step.status = 'pending';
      step.validation_id = undefined;
      step.completed_date = undefined;
      for (const later of p.steps.slice(p.currentStep + 1)) if (later.status !== 'pending') later.status = 'pending';
      await this.settle(m, p);
    });
  }

  addVerification(caller: Caller, id: string, dto: AddVerificationDto): Promise<ProcessEntity> {
    return this.mutate(caller, id, true, async (m, p) => {
      const step = this.toProcessStep({
        step_id: `step-${p.steps.length + 1}`,
        type: dto.type,
        ...(dto.fields ? { fields: dto.fields.map((f) => ({ ...f, required: f.required ?? true })) } : {}),
      });
      step.dynamic = true;
      p.steps.push(step);
      await this.settle(m, p);
    });
  }

  async remove(caller: Caller, id: string): Promise<void> {
    await this.mutate(caller, id, false, async (m, p) => {
      p.deletedAt = this.clock.now();
      await this.settle(m, p);
    });
  }

  /** An authorized user changes the final status; the history keeps every change. */
  override(caller: Caller, id: string, dto: OverrideStatusDto): Promise<ProcessEntity> {
    return this.mutate(caller, id, false, async (m, p) => {
      if (p.status === 'pending')
        throw new ProcessException(ProcessErrorCode.ProcessNotFinished, 'only a finished process can be overridden');
      p.overrideStatusHistory.push({
        override_status: dto.override_status,
        previous: p.overrideStatus,
        user_id: caller.userId,
        ...(dto.reason ? { reason: dto.reason } : {}),
        date: this.clock.now().toISOString(),
      });
      p.overrideStatus = dto.override_status;
      await this.settle(m, p);
    });
  }

  /** The durable timer: at the deadline a pending process fails, unless a validation is unfinished (grace). */
  private async onTimeout(m: EntityManager, job: TimeoutJob): Promise<void> {
    const p = await m.findOne(ProcessEntity, { where: { id: job.process_id }, lock: { mode: 'pessimistic_write' } });
    if (!p || p.status !== 'pending' || p.deletedAt || p.timeoutAttempts !== job.attempt) return;
    const waiting = p.steps.some((s) => s.status === 'awaiting_validation');
    if (waiting && p.timeoutAttempts < TIMEOUT_MAX_GRACES) {
      p.timeoutAttempts += 1;
      p.deadline = new Date(this.clock.now().getTime() + TIMEOUT_GRACE_MS);
      await this.scheduleTimeout(m, p, p.timeoutAttempts);
    } else {
      this.fail(p, 'expired', undefined, waiting ? 'validation_not_finished' : 'process_timeout');
    }
    await this.settle(m, p);
  }

  private fail(p: ProcessEntity, failureStatus: string, declined?: string, expired?: string) {
    p.status = 'failure';
    p.failureStatus = failureStatus;
    p.declinedReason = declined ?? (failureStatus === 'declined' ? 'validation_declined' : null);
    p.expiredReason = expired ?? null;
  }

  /** Saves the process; a pending process whose steps all succeeded becomes success; finishing publishes. */
  private async settle(m: EntityManager, p: ProcessEntity): Promise<void> {
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
        payload: { process: this.record(p), variables: p.variables } satisfies ProcessFinishedPayload,
      });
  }

  private async mutate(
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
      if (!p || p.deletedAt || (this.readsOwnOnly(caller) && p.userId !== caller.userId && p.keyId !== caller.keyId))
        throw new ProcessException(ProcessErrorCode.ProcessNotFound, `process ${id} not found`);
      if (continuing) {
        if (caller.keyType !== 'backend' && p.keyId !== caller.keyId)
          throw new ProcessException(ProcessErrorCode.NotProcessKey, 'continue a process with the key that created it');
        if (p.status !== 'pending')
          throw new ProcessException(ProcessErrorCode.ProcessFinished, `process ${id} is already ${p.status}`);
      }
      await fn(m, p);
      return p;
    });
  }

  private scheduleTimeout(m: EntityManager, p: ProcessEntity, attempt: number) {
    return this.jobs.enqueue<TimeoutJob>(
      m,
      PROCESS_TIMEOUT_QUEUE,
      { process_id: p.id, attempt },
      { tenantId: p.tenantId, runAt: p.deadline, dedupeKey: `process-timeout:${p.id}:${attempt}` },
    );
  }

  private readsOwnOnly(caller: Caller): boolean {
    return caller.permissions.has(READ_OWN_PERMISSION);
  }

  private requiredFields(flowSteps: FlowStep[] | undefined, step: ProcessStep): string[] {
    const def = flowSteps?.find((s) => s.step_id === step.step_id);
    return def?.fields?.filter((f) => f.required).map((f) => f.name) ?? [];
  }

  private toProcessStep(s: FlowStep): ProcessStep {
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

  record(p: ProcessEntity): ProcessRecord {
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
}

const newVerificationId = () => `VER${randomUUID().replace(/-/g, '').slice(0, 20)}`;

function addMonths(d: Date, months: number): Date {
  const r = new Date(d);
  r.setUTCMonth(r.getUTCMonth() + months);
  return r;
}

export type { ProcessStatus };
