import { randomUUID } from 'node:crypto';

import {
  Caller,
  Clock,
  FieldError,
  isFormBody,
  JobQueueService,
  Page,
  paginate,
  ValidationFailedException,
} from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Repository } from 'typeorm';

import { CheckException } from '../checks/checks.exception';
import { ChecksService } from '../checks/checks.service';
import { CheckEntity } from '../engine/check.entity';
import { CONTINUOUS_CHECK_STATUSES, ContinuousCheckEntity, ContinuousCheckStatus } from './continuous-check.entity';
import { ContinuousCheckRunEntity } from './continuous-check-run.entity';
import { ContinuousCheckErrorCode, ContinuousCheckException } from './continuous-checks.exception';
import {
  dueTime,
  endDateError,
  Frequency,
  FREQUENCY_MESSAGE,
  nextDueAfter,
  parseDate,
  parseFrequency,
  withinEnd,
} from './frequency';

export const CONTINUOUS_RUN_QUEUE = 'checks.continuous.run';
export interface ContinuousRunJob {
  continuous_check_id: string;
  /** The due time this job runs (ISO); a job whose due time is no longer the check's next_run_at is stale and does nothing. */
  due_at: string;
}

export const newContinuousCheckId = () => `CCK${randomUUID().replace(/-/g, '')}`;
const PAGE_SIZE = 20;
const MAX_ID_LENGTH = 64;

const present = (v: unknown) => v !== undefined && v !== null && v !== '';
const str = (v: unknown): unknown => (Array.isArray(v) ? (v as unknown[])[0] : v);

/**
 * Continuous checks: a check repeated with the same inputs at each due time until end_date.
 *
 * Due times are `anchor + k * frequency` (k >= 1; the anchor is the creation, or the moment the
 * frequency last changed). Exactly one job is queued per due run, with the dedupe key
 * `continuous:<id>:<due ms>` and committed with the change that scheduled it; the job re-checks
 * under a row lock that the continuous check is enabled and that its due time is still the
 * check's next_run_at, so a restart, a second replica or a stale job never runs a due time twice.
 * Disabling stops the runs (next_run_at null); enabling resumes at the first due time after now:
 * runs missed while disabled (or while the service was down) are not caught up in a burst.
 */
@Injectable()
export class ContinuousChecksService {
  constructor(
    @InjectRepository(ContinuousCheckEntity) private readonly continuous: Repository<ContinuousCheckEntity>,
    @InjectRepository(ContinuousCheckRunEntity) private readonly runs: Repository<ContinuousCheckRunEntity>,
    private readonly dataSource: DataSource,
    private readonly checks: ChecksService,
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
  ) {}

  async create(
    caller: Caller,
    body: Record<string, unknown>,
  ): Promise<{ cc: ContinuousCheckEntity; original: CheckEntity }> {
    body = body ?? {};
    const errors: FieldError[] = [];
    const checkId = str(body.check_id);
    if (!present(checkId)) errors.push({ field: 'check_id', message: 'check_id is required' });
    else if (typeof checkId !== 'string' || checkId.length > MAX_ID_LENGTH)
      errors.push({ field: 'check_id', message: `check_id must be a check id (at most ${MAX_ID_LENGTH} characters)` });
    const schedule = this.parseSchedule(caller, body, errors);
    if (errors.length) throw new ValidationFailedException(errors);

    const original = await this.originalCheck(caller, checkId as string);
    const cc = await this.dataSource.transaction((m) => this.insert(m, caller, original, schedule!));
    return { cc, original };
  }

  /**
   * Creates a continuous check of `original` from code, in the caller's transaction (e.g. a batch
   * with frequency and end_date, one per check it creates). Same rules as POST (400 naming the
   * field); `original` must be a check of the caller's tenant.
   */
  async createInTransaction(
    m: EntityManager,
    caller: Caller,
    original: CheckEntity,
    body: { frequency: unknown; end_date: unknown; status?: unknown; api_key_version?: unknown },
  ): Promise<ContinuousCheckEntity> {
    const errors: FieldError[] = [];
    const schedule = this.parseSchedule(caller, body, errors);
    if (errors.length) throw new ValidationFailedException(errors);
    if (original.tenantId !== caller.tenantId) throw this.notFound(original.id);
    return this.insert(m, caller, original, schedule!);
  }

  private parseSchedule(caller: Caller, body: Record<string, unknown>, errors: FieldError[]) {
    const now = this.clock.now();
    const frequency = this.frequency(str(body.frequency), errors);
    const endError = endDateError(str(body.end_date), frequency, now);
    if (endError) errors.push(endError);
    const status = this.status(str(body.status), false, errors) ?? 'enabled';
    const hookVersion = this.hookVersion(caller, body.api_key_version, isFormBody(body), errors);
    if (errors.length) return undefined;
    return {
      frequency: frequency!,
      frequencyText: String(str(body.frequency)).trim().toLowerCase(),
      endDate: parseDate(str(body.end_date))!,
      status,
      hookVersion,
    };
  }

  private async insert(
    m: EntityManager,
    caller: Caller,
    original: CheckEntity,
    schedule: NonNullable<ReturnType<ContinuousChecksService['parseSchedule']>>,
  ) {
    const now = this.clock.now();
    const cc = this.continuous.create({
      id: newContinuousCheckId(),
      tenantId: caller.tenantId,
      checkId: original.id,
      lastCheckId: original.id,
      frequency: schedule.frequencyText,
      endDate: schedule.endDate.toISOString().slice(0, 10),
      status: schedule.status,
      apiKeyVersion: schedule.hookVersion ?? caller.keyVersion,
      scoreStatus: 'new',
      counter: 0,
      anchorAt: now,
      nextRunAt: schedule.status === 'enabled' ? dueTime(now, schedule.frequency, 1) : null,
      createdBy: caller.userId,
      createdAt: now,
      updatedAt: now,
    });
    await m.insert(ContinuousCheckEntity, cc);
    await this.schedule(m, cc);
    return cc;
  }

  async update(
    caller: Caller,
    id: string,
    body: Record<string, unknown>,
  ): Promise<{ cc: ContinuousCheckEntity; original: CheckEntity | undefined }> {
    body = body ?? {};
    const errors: FieldError[] = [];
    const frequency = this.frequency(str(body.frequency), errors);
    const status = this.status(str(body.status), true, errors);
    const hookVersion = this.hookVersion(caller, body.api_key_version, isFormBody(body), errors);
    if (errors.length) throw new ValidationFailedException(errors);

    const cc = await this.dataSource.transaction(async (m) => {
      const cc = await m
        .getRepository(ContinuousCheckEntity)
        .createQueryBuilder('cc')
        .setLock('pessimistic_write')
        .where('cc.tenantId = :tenant AND cc.id = :id', { tenant: caller.tenantId, id })
        .getOne();
      if (!cc) throw this.notFound(id);
      const now = this.clock.now();
      const newFrequency = String(str(body.frequency)).trim().toLowerCase();
      const frequencyChanged = newFrequency !== cc.frequency;
      const resumed = status === 'enabled' && cc.status !== 'enabled';
      if (frequencyChanged) {
        cc.frequency = newFrequency;
        cc.anchorAt = now; // the new frequency counts from now
      }
      cc.status = status!;
      if (hookVersion !== undefined) cc.apiKeyVersion = hookVersion;
      if (status === 'disabled') cc.nextRunAt = null;
      else if (resumed || frequencyChanged) {
        const next = nextDueAfter(cc.anchorAt, frequency!, now);
        cc.nextRunAt = withinEnd(next, parseDate(cc.endDate)!) ? next : null;
      }
      cc.updatedAt = now;
      await m.update(
        ContinuousCheckEntity,
        { id: cc.id, tenantId: cc.tenantId },
        {
          frequency: cc.frequency,
          anchorAt: cc.anchorAt,
          status: cc.status,
          apiKeyVersion: cc.apiKeyVersion,
          nextRunAt: cc.nextRunAt,
          updatedAt: cc.updatedAt,
        },
      );
      await this.schedule(m, cc);
      return cc;
    });
    return { cc, original: await this.checks.get(caller, cc.checkId).catch(() => undefined) };
  }

  async get(caller: Caller, id: string): Promise<{ cc: ContinuousCheckEntity; original: CheckEntity | undefined }> {
    const cc = await this.continuous.findOneBy({ tenantId: caller.tenantId, id });
    if (!cc) throw this.notFound(id);
    return { cc, original: await this.checks.get(caller, cc.checkId).catch(() => undefined) };
  }

  async list(
    caller: Caller,
    startKey: string | undefined,
  ): Promise<{ page: Page<ContinuousCheckEntity>; originals: Map<string, CheckEntity> }> {
    const page = await paginate(
      this.continuous.createQueryBuilder('cc').where('cc.tenantId = :tenant', { tenant: caller.tenantId }),
      { startKey, limit: PAGE_SIZE },
    );
    const ids = [...new Set(page.items.map((cc) => cc.checkId))];
    const originals = ids.length
      ? await this.dataSource.getRepository(CheckEntity).findBy({ tenantId: caller.tenantId, id: In(ids) })
      : [];
    return { page, originals: new Map(originals.map((c) => [c.id, c])) };
  }

  /** The run log of a continuous check, newest first. */
  async history(caller: Caller, id: string, startKey: string | undefined): Promise<Page<ContinuousCheckRunEntity>> {
    const exists = await this.continuous.existsBy({ tenantId: caller.tenantId, id });
    if (!exists) throw this.notFound(id);
    const qb = this.runs
      .createQueryBuilder('r')
      .where('r.tenantId = :tenant AND r.continuousCheckId = :id', { tenant: caller.tenantId, id });
    return paginate(qb, { startKey, limit: PAGE_SIZE });
  }

  /** Queues the job of the next due run (in the caller's transaction); a job already queued for that due time is kept. */
  async schedule(m: EntityManager, cc: ContinuousCheckEntity): Promise<void> {
    if (cc.status !== 'enabled' || !cc.nextRunAt) return;
    await this.jobs.enqueue<ContinuousRunJob>(
      m,
      CONTINUOUS_RUN_QUEUE,
      { continuous_check_id: cc.id, due_at: cc.nextRunAt.toISOString() },
      {
        tenantId: cc.tenantId,
        runAt: cc.nextRunAt,
        maxAttempts: 10,
        dedupeKey: `continuous:${cc.id}:${cc.nextRunAt.getTime()}`,
      },
    );
  }

  private async originalCheck(caller: Caller, checkId: string): Promise<CheckEntity> {
    try {
      return await this.checks.get(caller, checkId);
    } catch (err) {
      if (err instanceof CheckException && err.status === 404) {
        throw new ContinuousCheckException(ContinuousCheckErrorCode.CheckNotFound, `check ${checkId} not found`, [
          { field: 'check_id', message: `check ${checkId} does not exist` },
        ]);
      }
      throw err;
    }
  }

  private frequency(value: unknown, errors: FieldError[]): Frequency | undefined {
    if (!present(value)) {
      errors.push({ field: 'frequency', message: 'frequency is required' });
      return undefined;
    }
    const f = parseFrequency(value);
    if (!f) errors.push({ field: 'frequency', message: FREQUENCY_MESSAGE });
    return f;
  }

  private status(value: unknown, required: boolean, errors: FieldError[]): ContinuousCheckStatus | undefined {
    if (!present(value)) {
      if (required) errors.push({ field: 'status', message: 'status is required (enabled or disabled)' });
      return undefined;
    }
    if (!(CONTINUOUS_CHECK_STATUSES as readonly unknown[]).includes(value)) {
      errors.push({ field: 'status', message: `status must be one of ${CONTINUOUS_CHECK_STATUSES.join(', ')}` });
      return undefined;
    }
    return value as ContinuousCheckStatus;
  }

  /** api_key_version: 0 or 1, and the version of the API key in use. */
  private hookVersion(caller: Caller, value: unknown, form: boolean, errors: FieldError[]): 0 | 1 | undefined {
    if (!present(value)) return undefined;
    // 0 or 1: a number in JSON, text in a form; a list (a repeated form field) is not one version
    const v = typeof value === 'number' || (form && typeof value === 'string') ? String(value).trim() : undefined;
    if (v !== '0' && v !== '1') {
      errors.push({ field: 'api_key_version', message: 'api_key_version must be 0 or 1' });
      return undefined;
    }
    if (Number(v) !== caller.keyVersion) {
      errors.push({
        field: 'api_key_version',
        message: `api_key_version must match the version of the API key in use (${caller.keyVersion})`,
      });
      return undefined;
    }
    return Number(v) as 0 | 1;
  }

  private notFound(id: string) {
    return new ContinuousCheckException(
      ContinuousCheckErrorCode.ContinuousCheckNotFound,
      `continuous check ${id} not found`,
    );
  }
}
