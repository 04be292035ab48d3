import { compile, JsonLogicSqlError, toSql, truthy } from '@kyc/json-logic';
import { Clock, Job, JobQueueService, PermanentJobError, rawQuery } from '@kyc/platform';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { CustomersConfig } from '../config/customers.config';
import { SEGMENT_FIELD_MAP, SEGMENT_VARIABLES } from '../profiles/segment-variables';
import { SegmentEntity } from './segment.entity';
import * as SQL from './segment-compute.sql';

export const SEGMENT_COMPUTE_QUEUE = 'customers.segment-compute';
const DAY_MS = 86_400_000;

export interface SegmentComputeJob {
  segmentId: string;
  computeId: string;
  evaluation: 'auto' | 'node';
}

/** Parameters $1..$3 of every compute statement; the rule's own parameters follow ($4…). */
const RULE_FIRST_PARAM = 4;
/** The last push-down step may be this much larger than CUSTOMERS_SEGMENT_SQL_CHUNK. */
const LAST_STEP_SLACK = 1.25;
const VARIABLE_NAMES = Object.keys(SEGMENT_VARIABLES);

/** Runs a statement in the given transaction (or alone, on the data source's manager) through the platform's raw-query API. */
const sql = (m: EntityManager, text: string, values: unknown[]): Promise<never[]> =>
  rawQuery<never>(m.connection, text, values, m);

/**
 * Computes a segment's members as a durable job (the platform job queue): the profiles of the
 * tenant are walked in id order, one step at a time, and each step's members and the compute's
 * progress (processed, matched, cursor) commit together, so a compute whose worker dies resumes
 * at its cursor. The members become the segment's when the last step commits.
 *
 * Push-down: the rule is translated (libs/json-logic toSql) into one parameterized WHERE over
 * the profile and its decision variables; each step is one SELECT of the members (PostgreSQL may
 * scan in parallel) and one INSERT of them in profile id order (the members' primary key then
 * grows at its end instead of splitting pages). Rules the
 * translation refuses (operators like `if`, `+`, `map`, or coercions PostgreSQL cannot
 * reproduce exactly) are evaluated in Node per batch of profiles, with the compiled rule
 * (json-logic-js semantics) over the same variable expressions; the compute says so
 * (`evaluation: node` and the reason).
 */
@Injectable()
export class SegmentComputeStore implements OnModuleInit {
  private readonly logger = new Logger('segment-compute');

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
    private readonly config: CustomersConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.register<SegmentComputeJob>(SEGMENT_COMPUTE_QUEUE, (job) => this.run(job), {
      concurrency: 2,
      lockMs: this.config.CUSTOMERS_SEGMENT_LEASE_MS,
    });
  }

  /** Enqueues the compute in the caller's transaction (the one that marked the segment queued). */
  enqueue(m: EntityManager, tenantId: string, payload: SegmentComputeJob): Promise<string | null> {
    return this.jobs.enqueue(m, SEGMENT_COMPUTE_QUEUE, payload, { tenantId, maxAttempts: 5 });
  }

  private async run(job: Job<SegmentComputeJob>): Promise<void> {
    const { segmentId, computeId } = job.payload;
    const segment = await this.dataSource.getRepository(SegmentEntity).findOneBy({ id: segmentId });
    // Deleted, or a newer compute was requested: this one is moot.
    if (!segment || segment.computeId !== computeId || segment.computeStatus === 'completed') return;
    try {
      await this.compute(segment, job.payload);
    } catch (err: unknown) {
      if (job.attempt >= job.maxAttempts || err instanceof PermanentJobError) {
        await sql(this.dataSource.manager, SQL.COMPUTE_FAILED, [
          segmentId,
          computeId,
          (err as Error).message,
          this.clock.now(),
        ]);
        this.logger.error({ err, segment_id: segmentId, compute_id: computeId, msg: 'segment compute failed' });
        return;
      }
      throw err;
    }
  }

  private async compute(segment: SegmentEntity, payload: SegmentComputeJob): Promise<void> {
    let where: { sql: string; params: unknown[] } | undefined;
    let reason: string | null = null;
    if (payload.evaluation === 'node') reason = 'Node evaluation requested';
    else
      try {
        where = toSql(segment.rule, SEGMENT_FIELD_MAP, { firstParam: RULE_FIRST_PARAM });
      } catch (err) {
        if (!(err instanceof JsonLogicSqlError)) throw err;
        reason = `the SQL translation refused the rule: ${err.message}`;
      }
    const evaluation = where ? 'sql' : 'node';
    const since = new Date((segment.computeRequestedAt ?? this.clock.now()).getTime() - 30 * DAY_MS);
    const base = [segment.tenantId, segment.computeCursor ?? '', since];

    let total = segment.computeTotal;
    if (segment.computeStatus === 'queued') {
      const startedAt = this.clock.now();
      const counted: { total: number }[] = await sql(this.dataSource.manager, SQL.COUNT_PROFILES, [segment.tenantId]);
      total = counted[0].total;
      await sql(this.dataSource.manager, SQL.COMPUTE_RUNNING, [
        segment.id,
        segment.computeId,
        startedAt,
        total,
        evaluation,
        reason,
      ]);
    }

    const compiled = where ? undefined : compile(segment.rule);
    const step = where ? this.config.CUSTOMERS_SEGMENT_SQL_CHUNK : this.config.CUSTOMERS_SEGMENT_NODE_BATCH;
    let cursor = segment.computeCursor ?? '';
    let processedSoFar = segment.computeProcessed;
    for (;;) {
      const done = await this.dataSource.transaction(async (m) => {
        base[1] = cursor;
        // The step's last profile id bounds it; the last step needs no bound: it takes what remains
        // when that fits in a step and a quarter (rather than leaving a small remainder step).
        const [bound]: { id: string }[] =
          where && processedSoFar + step * LAST_STEP_SLACK < total
            ? await sql(m, SQL.STEP_BOUND, [segment.tenantId, cursor, step - 1])
            : [];
        const upper = bound?.id ?? null;
        let matched: number;
        let processed: number;
        if (where) {
          const n = RULE_FIRST_PARAM + where.params.length;
          const range = upper === null ? '' : ` AND p.id <= $${n}`;
          // A plain SELECT may run on parallel workers (an INSERT … SELECT never does): the members
          // are selected as one text array, in id order, and written by one INSERT from it; no row
          // is handled in Node.
          const [selected]: { ids: string | null; n: number }[] = await sql(m, SQL.selectMembers(where.sql, range), [
            ...base,
            ...where.params,
            ...(upper === null ? [] : [upper]),
          ]);
          if (selected.ids) await sql(m, SQL.INSERT_SELECTED_MEMBERS, [segment.computeId, segment.id, selected.ids]);
          matched = selected.n;
          processed = upper === null ? -1 : step;
        } else {
          const rows: Record<string, unknown>[] = await sql(m, SQL.PROFILE_VARIABLES, [...base, step]);
          const members = rows.filter((row) => truthy(compiled!(profileRecord(row)))).map((row) => String(row.__id));
          if (members.length) await sql(m, SQL.INSERT_MEMBERS, [segment.computeId, segment.id, members]);
          matched = members.length;
          processed = rows.length < step ? -1 : rows.length;
          if (rows.length) cursor = String(rows[rows.length - 1].__id);
        }
        if (where && upper !== null) cursor = upper;
        const last = processed === -1;
        await sql(m, SQL.STEP_DONE, [segment.id, segment.computeId, matched, last, Math.max(processed, 0), cursor]);
        processedSoFar += Math.max(processed, 0);
        if (last) await this.finish(m, segment);
        return last;
      });
      if (done) return;
    }
  }

  /** The compute's members become the segment's; the previous compute's members are dropped. */
  private async finish(m: EntityManager, segment: SegmentEntity): Promise<void> {
    const now = this.clock.now();
    await sql(m, SQL.COMPUTE_COMPLETED, [segment.id, segment.computeId, now]);
    await sql(m, SQL.DROP_OLD_MEMBERS, [segment.id, segment.computeId]);
  }

  /** Drops a deleted segment's members, in the deletion's transaction. */
  async deleteMembers(m: EntityManager, segmentId: string): Promise<void> {
    await sql(m, SQL.DELETE_MEMBERS, [segmentId]);
  }
}

/** A profile's record as a rule reads it: each variable's value, absent where SQL gave NULL. */
export function profileRecord(row: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  VARIABLE_NAMES.forEach((name, i) => {
    const value = row[`v${i}`];
    if (value !== null && value !== undefined) record[name] = value;
  });
  return record;
}
