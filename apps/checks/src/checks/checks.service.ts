import { createHash, randomFillSync } from 'node:crypto';

import { CHECK_COUNTRIES, CHECK_EVENT_TYPES, CheckCreatedPayload, countryPermission, TOPICS } from '@kyc/contracts';
import { accessRulesWhere, SqlFieldMap } from '@kyc/json-logic';
import {
  AppException,
  Caller,
  canonicalJson,
  Clock,
  FieldError,
  findOneRaw,
  GroupCommit,
  mapRow,
  OutboxRow,
  OutboxService,
  OutgoingEvent,
  Page,
  paginate,
  preparedQuery,
  rawQuery,
  ValidationFailedException,
} from '@kyc/platform';
import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository, SelectQueryBuilder } from 'typeorm';

import { CollectorRegistry } from '../collectors/collector.registry';
import { ChecksConfig } from '../config/checks.config';
import { CheckDatabaseEntity } from '../engine/check-database.entity';
import { CheckEngineService, searchedName, START_QUEUE } from '../engine/check-engine.service';
import { CheckEntity } from './check.entity';
import {
  checkRecord,
  presentAttachments,
  presentCheck,
  presentCheckJson,
  presentDetail,
  PRESENTED_PROPERTIES,
  PresentedCheck,
  RESULT_JSON_SQL,
} from './check.presenter';
import { isBuiltInType, parseCheckInputs } from './check-inputs';
import { CheckErrorCode, CheckException } from './checks.exception';
import { CheckDetailsQuery } from './dto/check-details.query';
import { CreateCheckDto } from './dto/create-check.dto';
import { ListChecksQuery } from './dto/list-checks.query';

/**
 * `CHK` + 32 hex digits, like the public API's ids, but time-ordered (48-bit milliseconds, then 80
 * random bits): new rows land on the right edge of the primary-key index instead of random pages,
 * which keeps index writes (and WAL) small under load.
 */
export const newCheckId = (now = Date.now()) => `CHK${now.toString(16).padStart(12, '0').slice(-12)}${randomHex(10)}`;

// Random bytes drawn from a pool refilled 4 KiB at a time: one getrandom call per ~400 ids, not one per id.
const entropy = Buffer.alloc(4096);
let entropyUsed = entropy.length;
function randomHex(bytes: number): string {
  if (entropyUsed + bytes > entropy.length) {
    randomFillSync(entropy);
    entropyUsed = 0;
  }
  entropyUsed += bytes;
  return entropy.toString('hex', entropyUsed - bytes, entropyUsed);
}
const PAGE_SIZE = 20;
const DETAILS_PAGE_SIZE = 10;

const input = (name: string) => `c.inputs->>'${name}'`;
/** The SQL of each check field role access rules may read (CHECK_ACCESS_RULE_FIELDS), over the alias `c`. */
export const CHECK_ACCESS_RULE_SQL: SqlFieldMap = {
  check_id: 'c.id',
  country: 'c.country',
  type: 'c.type',
  status: 'c.status',
  score: { sql: 'c.score', type: 'number' },
  id_score: { sql: 'c.idScore', type: 'number' },
  homonym_score: { sql: 'c.homonymScore', type: 'number' },
  custom_input: 'c.customInput',
  report_id: 'c.reportId',
  user_authorized: { sql: 'c.userAuthorized', type: 'boolean' },
  created_by: 'c.createdBy',
  creation_date: `to_char(c.createdAt AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  national_id: input('national_id'),
  first_name: input('first_name'),
  last_name: input('last_name'),
  license_plate: input('license_plate'),
  tax_id: input('tax_id'),
  company_name: input('company_name'),
};

/** One result of ChecksService.createMany: the check (created, or a recent one with the same inputs), or why it was refused. */
export type CreateManyResult =
  | { check: CheckEntity; created: boolean; error?: undefined }
  | { error: AppException; check?: undefined; created?: undefined };

/**
 * Stores a group of checks (the JSON recordset $1), their created events and start jobs; per
 * check: created, an existing recent one with its inputs ($2 seconds), or unknown custom type.
 * Planned per call, never as a prepared statement: the de-duplication lookup's best index depends
 * on the table's size, and a plan cached while checks was nearly empty scanned every recent check
 * of the tenant for each new one.
 */
const STORE_SQL = `WITH r AS (
     SELECT r.*, ct.weights AS custom_weights, (r.built_in OR ct.weights IS NOT NULL) AS known
       FROM jsonb_to_recordset($1::jsonb) AS r(i int, id text, tenant_id text, country text, type text, inputs jsonb, input_hash text, force boolean, built_in boolean,
                                                custom_input text, report_id text, user_authorized boolean, created_by text, created_at timestamptz, region text,
                                                previous_check text, rule_depth int, requested_by_execution text, event_id uuid, event_topic text, event_type text, envelope jsonb)
       LEFT JOIN custom_types ct ON NOT r.built_in AND ct.tenant_id = r.tenant_id AND ct.country = r.country AND ct.type = r.type
   ), d AS (
     SELECT r.*, (SELECT (array_agg(c.id ORDER BY c.created_at DESC))[1] FROM checks c
                   WHERE c.tenant_id = r.tenant_id AND c.input_hash = r.input_hash AND NOT r.force AND c.status <> 'error'
                     AND c.created_at > r.created_at - ($2 * interval '1 second')) AS recent_id
       FROM r WHERE r.known
   ), ins AS (
     INSERT INTO checks (id, tenant_id, country, type, status, inputs, input_hash, custom_input, report_id, user_authorized, created_by, created_at, updated_at,
                         region, previous_check, weights, settings, rule_depth, requested_by_execution)
     SELECT d.id, d.tenant_id, d.country, d.type, 'not_started', d.inputs, d.input_hash, d.custom_input, d.report_id, d.user_authorized, d.created_by, d.created_at, d.created_at,
            d.region, d.previous_check, d.custom_weights,
            (SELECT jsonb_build_object('max_duration_minutes', s.max_duration_minutes, 'retries', s.retries, 'names_matching_type', s.names_matching_type)
               FROM check_settings s WHERE s.tenant_id = d.tenant_id),
            d.rule_depth, d.requested_by_execution
       FROM d WHERE d.recent_id IS NULL
     RETURNING id
   ), evt AS (
     INSERT INTO outbox (id, topic, message_key, type, tenant_id, envelope)
     SELECT d.event_id, d.event_topic, d.id, d.event_type, d.tenant_id, d.envelope FROM d JOIN ins ON ins.id = d.id
   ), job AS (
     INSERT INTO jobs (queue, tenant_id, payload, max_attempts, run_at, dedupe_key)
     SELECT $3, d.tenant_id, jsonb_build_object('check_id', d.id), 10, d.created_at, NULL FROM d JOIN ins ON ins.id = d.id
   )
   SELECT r.i, CASE WHEN NOT r.known THEN 'unknown_type' WHEN d.recent_id IS NOT NULL THEN 'existing' ELSE 'created' END AS outcome, COALESCE(d.recent_id, r.id) AS id
     FROM r LEFT JOIN d ON d.i = r.i ORDER BY r.i`;

/** The `checks.check.created` event of a new check. */
const createdEvent = (check: CheckEntity): OutgoingEvent<CheckCreatedPayload> => ({
  topic: TOPICS.checkCreated,
  type: CHECK_EVENT_TYPES.created,
  tenantId: check.tenantId,
  aggregateId: check.id,
  payload: { check: checkRecord(check) },
});

const unknownType = (dto: CreateCheckDto) =>
  new CheckException(
    CheckErrorCode.UnknownCheckType,
    `type ${dto.type} is neither person, vehicle, company nor a custom type of ${dto.country}`,
    [
      {
        field: 'type',
        message: `type must be person, vehicle, company or the name of a custom type of ${dto.country}`,
      },
    ],
  );

/** A check on its way to the database (create), with its created event. */
interface PendingCreate {
  check: CheckEntity;
  event: OutboxRow;
  builtIn: boolean;
  force: boolean;
}
type StoreOutcome = { outcome: 'created' | 'existing' | 'unknown_type'; id: string };

export interface CreateCheckOptions {
  /** The check this one repeats (continuous checks): shown as previous_check. */
  previousCheckId?: string;
  /** Create the check in this transaction (e.g. an inbox effect), committing with the caller's work. */
  manager?: EntityManager;
  /** Rules engine: depth of the check in a create_check chain, and the execution that asked for it. */
  ruleDepth?: number;
  requestedByExecution?: string;
}

/**
 * Checks: creation, reads and deletion. The engine (engine/check-engine.service.ts) runs them.
 *
 * `create(caller, inputs)` is the one way to create a check, from HTTP or from code (`createMany`
 * applies the same rules to many at once): batches create a chunk of spreadsheet rows with
 * createMany (a continuous batch calls create once per row) with the rows' wire-named inputs,
 * continuous checks call create with a stored check's inputs (plus force_creation=true and
 * previousCheckId) and a Caller of the tenant (e.g. one built for the user who scheduled them,
 * with checks.country_all or the country's permission).
 */
@Injectable()
export class ChecksService {
  private readonly logger = new Logger('checks');
  /**
   * Creations without a caller's transaction, grouped: those that arrive while
   * CHECKS_CREATE_GROUP_IN_FLIGHT statements run are stored together by the next (one commit and
   * WAL flush for many checks). A check with the inputs of one before it that is waiting or being
   * stored (and no force_creation) waits for a later statement, so it is de-duplicated against it.
   */
  private readonly creations: GroupCommit<PendingCreate, StoreOutcome>;
  /** getJson's statement: the presented columns (PRESENTED_PROPERTIES) and the result as JSON text (built on first use). */
  private getJsonSql?: string;

  constructor(
    @InjectRepository(CheckEntity) private readonly checks: Repository<CheckEntity>,
    @InjectRepository(CheckDatabaseEntity) private readonly databases: Repository<CheckDatabaseEntity>,
    private readonly outbox: OutboxService,
    private readonly config: ChecksConfig,
    private readonly clock: Clock,
    private readonly engine: CheckEngineService,
    private readonly registry: CollectorRegistry,
  ) {
    this.creations = new GroupCommit((items) => this.store(items), {
      maxBatch: 200,
      maxInFlight: config.CHECKS_CREATE_GROUP_IN_FLIGHT,
      ordering: { key: ({ check }) => `${check.tenantId}:${check.inputHash}`, mustSeeEarlier: (item) => !item.force },
    });
  }

  /**
   * Validates the inputs (every offending field listed) and checks the country permission, then
   * stores the check with its `checks.check.created` event and its start job. The store is one SQL
   * statement that also resolves a custom type (unknown -> 400), copies its weights and the
   * tenant's settings onto the check, and returns a check with identical inputs created within
   * CHECKS_DEDUP_WINDOW_SECONDS instead (unless force_creation is true or it ended in error).
   * Concurrent creations share that statement and its commit (group commit, see `creations`);
   * with `options.manager` the check is stored in the caller's transaction instead.
   */
  async create(
    caller: Caller,
    body: Record<string, unknown>,
    options: CreateCheckOptions = {},
  ): Promise<{ check: CheckEntity; created: boolean }> {
    const { check, dto, builtIn } = this.prepare(caller, body, options, this.clock.now());
    const pending: PendingCreate = {
      check,
      builtIn,
      force: dto.force_creation === true,
      event: this.outbox.row(createdEvent(check)),
    };
    const result = options.manager
      ? (await this.store([pending], options.manager))[0]
      : await this.creations.submit(pending);
    if (result.outcome === 'unknown_type') throw unknownType(dto);
    if (result.outcome === 'created') return { check, created: true };
    return { check: await this.get(caller, result.id), created: false };
  }

  /**
   * Stores checks, their created events and start jobs in one statement (one round trip, one
   * commit when no manager is given) and says, per check in order, whether it was created, a
   * recent one with its inputs was found instead, or its custom type is unknown.
   */
  private async store(items: PendingCreate[], manager?: EntityManager): Promise<StoreOutcome[]> {
    const values = [
      JSON.stringify(
        items.map(({ check, builtIn, force, event }, i) => ({
          i,
          id: check.id,
          tenant_id: check.tenantId,
          country: check.country,
          type: check.type,
          inputs: check.inputs,
          input_hash: check.inputHash,
          force,
          built_in: builtIn,
          custom_input: check.customInput,
          report_id: check.reportId,
          user_authorized: check.userAuthorized,
          created_by: check.createdBy,
          created_at: check.createdAt,
          region: check.region,
          previous_check: check.previousCheck,
          rule_depth: check.ruleDepth,
          requested_by_execution: check.requestedByExecution,
          event_id: event.id,
          event_topic: event.topic,
          event_type: event.type,
          envelope: event.envelope,
        })),
      ),
      this.config.CHECKS_DEDUP_WINDOW_SECONDS,
      START_QUEUE,
    ];
    const rows: (StoreOutcome & { i: number })[] = manager
      ? await manager.query(STORE_SQL, values)
      : await rawQuery(this.checks.manager.connection, STORE_SQL, values);
    // One autocommit statement, outside a TypeORM transaction: wake the relay and the job queue.
    if (!manager && rows.some((r) => r.outcome === 'created')) this.outbox.committed();
    return rows.map(({ outcome, id }) => ({ outcome, id }));
  }

  /**
   * Creates many checks in the caller's transaction (batches): each body is validated with exactly
   * the rules of create() (permission, consent, inputs, custom type, de-duplication) and a refused
   * one gets its exception in its place instead of throwing; the others are stored, with their
   * `checks.check.created` events and start jobs, in two multi-row statements. Results are in the
   * order of `bodies`. A body without force_creation gets a recent check with identical inputs
   * instead, also one created by an earlier body of the same call.
   */
  async createMany(
    caller: Caller,
    bodies: Record<string, unknown>[],
    manager: EntityManager,
  ): Promise<CreateManyResult[]> {
    const now = this.clock.now();
    const results: (CreateManyResult | undefined)[] = new Array(bodies.length);
    const prepared: { i: number; check: CheckEntity; dto: CreateCheckDto; builtIn: boolean }[] = [];
    bodies.forEach((body, i) => {
      try {
        prepared.push({ i, ...this.prepare(caller, body, {}, now) });
      } catch (err) {
        if (!(err instanceof AppException) || err.status >= 500) throw err;
        results[i] = { error: err };
      }
    });

    // Custom types (their weights are copied onto the check, as create() does; unknown -> refused).
    const custom = [
      ...new Map(
        prepared.filter((p) => !p.builtIn).map((p) => [`${p.check.country}/${p.check.type}`, p.check]),
      ).values(),
    ];
    const weights = new Map<string, unknown>();
    if (custom.length) {
      const found: { country: string; type: string; weights: unknown }[] = await manager.query(
        `SELECT country, type, weights FROM custom_types WHERE tenant_id = $1 AND (country, type) IN (SELECT * FROM unnest($2::text[], $3::text[])) FOR SHARE`,
        [caller.tenantId, custom.map((c) => c.country), custom.map((c) => c.type)],
      );
      for (const f of found) weights.set(`${f.country}/${f.type}`, f.weights);
    }
    const known = prepared.filter((p) => {
      if (p.builtIn || weights.has(`${p.check.country}/${p.check.type}`)) return true;
      results[p.i] = { error: unknownType(p.dto) };
      return false;
    });

    // De-duplication, in order: a body without force_creation gets the newest recent check with its inputs.
    const asking = known.filter((p) => p.dto.force_creation !== true);
    const recent = new Map<string, string>();
    if (asking.length) {
      const rows: { id: string; input_hash: string }[] = await manager.query(
        `SELECT DISTINCT ON (input_hash) id, input_hash FROM checks
          WHERE tenant_id = $1 AND input_hash = ANY($2) AND status <> 'error' AND created_at > $3::timestamptz - ($4 * interval '1 second')
          ORDER BY input_hash, created_at DESC`,
        [
          caller.tenantId,
          [...new Set(asking.map((p) => p.check.inputHash))],
          now,
          this.config.CHECKS_DEDUP_WINDOW_SECONDS,
        ],
      );
      for (const r of rows) recent.set(r.input_hash, r.id);
    }
    const newest = new Map<string, CheckEntity>();
    const existingIds = new Map<number, string>();
    const creating: CheckEntity[] = [];
    for (const p of known) {
      const earlier = p.dto.force_creation === true ? undefined : newest.get(p.check.inputHash);
      if (earlier) results[p.i] = { check: earlier, created: false };
      else if (p.dto.force_creation !== true && recent.has(p.check.inputHash))
        existingIds.set(p.i, recent.get(p.check.inputHash)!);
      else {
        p.check.weights = p.builtIn
          ? null
          : (weights.get(`${p.check.country}/${p.check.type}`) as CheckEntity['weights']);
        creating.push(p.check);
        newest.set(p.check.inputHash, p.check);
        results[p.i] = { check: p.check, created: true };
      }
    }
    if (existingIds.size) {
      const found = await manager.findBy(CheckEntity, {
        tenantId: caller.tenantId,
        id: In([...new Set(existingIds.values())]),
      });
      const byId = new Map(found.map((c) => [c.id, c]));
      for (const [i, id] of existingIds)
        results[i] = byId.has(id)
          ? { check: byId.get(id)!, created: false }
          : { error: new CheckException(CheckErrorCode.CheckNotFound, `check ${id} not found`) };
    }

    if (creating.length) {
      const events = creating.map((check) => this.outbox.row(createdEvent(check)));
      await manager.query(
        `WITH r AS (
           SELECT * FROM jsonb_to_recordset($2::jsonb) AS r(id text, country text, type text, inputs jsonb, input_hash text, custom_input text, report_id text, user_authorized boolean,
                                                             region text, previous_check text, weights jsonb, rule_depth int, requested_by_execution text)
         ), ins AS (
           INSERT INTO checks (id, tenant_id, country, type, status, inputs, input_hash, custom_input, report_id, user_authorized, created_by, created_at, updated_at,
                               region, previous_check, weights, settings, rule_depth, requested_by_execution)
           SELECT r.id, $1, r.country, r.type, 'not_started', r.inputs, r.input_hash, r.custom_input, r.report_id, r.user_authorized, $3, $4, $4,
                  r.region, r.previous_check, r.weights,
                  -- the tenant's settings, copied as create() copies them
                  (SELECT jsonb_build_object('max_duration_minutes', max_duration_minutes, 'retries', retries, 'names_matching_type', names_matching_type) FROM check_settings WHERE tenant_id = $1),
                  r.rule_depth, r.requested_by_execution
             FROM r
           RETURNING id
         ), evt AS (
           INSERT INTO outbox (id, topic, message_key, type, tenant_id, envelope)
           SELECT e.id, e.topic, e.message_key, e.type, $1, e.envelope FROM unnest($6::uuid[], $7::text[], $8::text[], $9::text[], $10::jsonb[]) AS e(id, topic, message_key, type, envelope)
         )
         INSERT INTO jobs (queue, tenant_id, payload, max_attempts, run_at, dedupe_key) SELECT $5, $1, jsonb_build_object('check_id', id), 10, $4, NULL FROM ins`,
        [
          caller.tenantId,
          JSON.stringify(
            creating.map((c) => ({
              id: c.id,
              country: c.country,
              type: c.type,
              inputs: c.inputs,
              input_hash: c.inputHash,
              custom_input: c.customInput,
              report_id: c.reportId,
              user_authorized: c.userAuthorized,
              region: c.region,
              previous_check: c.previousCheck,
              weights: c.weights,
              rule_depth: c.ruleDepth,
              requested_by_execution: c.requestedByExecution,
            })),
          ),
          caller.userId,
          now,
          START_QUEUE,
          events.map((e) => e.id),
          events.map((e) => e.topic),
          events.map((e) => e.message_key),
          events.map((e) => e.type),
          events.map((e) => JSON.stringify(e.envelope)),
        ],
      );
    }
    return results as CreateManyResult[];
  }

  /**
   * The rules of creation that need no database (inputs, country permission, consent; 400/403
   * listing every offending field) and the new check they give (not stored).
   */
  private prepare(
    caller: Caller,
    body: Record<string, unknown>,
    options: CreateCheckOptions,
    now: Date,
  ): { check: CheckEntity; dto: CreateCheckDto; builtIn: boolean } {
    const { dto, inputs, region, errors } = parseCheckInputs(body ?? {}, now);
    if ((CHECK_COUNTRIES as readonly string[]).includes(dto.country) && !errors.some((e) => e.field === 'country')) {
      const perm = countryPermission(dto.country);
      caller.requireAny(...(perm ? [perm] : []), 'checks.country_all');
    }
    const consent = this.consentError(caller, dto.user_authorized, errors);
    if (consent && !errors.length)
      throw new CheckException(
        CheckErrorCode.UserNotAuthorized,
        'The person must authorize the check: user_authorized must be true',
        [consent],
      );
    if (consent) errors.push(consent);
    if (errors.length) throw new ValidationFailedException(errors);

    const builtIn = isBuiltInType(dto.type);
    // A plain assignment (the entity has only columns): Repository.create's relation-aware copy
    // was 1.5% of the POST path's CPU.
    const check = Object.assign(new CheckEntity(), {
      id: newCheckId(now.getTime()),
      tenantId: caller.tenantId,
      country: dto.country,
      type: dto.type,
      status: 'not_started',
      inputs,
      inputHash: createHash('sha256')
        .update(
          canonicalJson({
            country: dto.country,
            type: dto.type,
            inputs,
            custom_input: dto.custom_input ?? null,
            report_id: dto.report_id ?? null,
          }),
        )
        .digest('hex'),
      customInput: dto.custom_input ?? null,
      reportId: dto.report_id ?? null,
      userAuthorized: dto.user_authorized === true,
      score: -1,
      idScore: -1,
      homonymScore: -1,
      region,
      previousCheck: options.previousCheckId ?? null,
      weights: null,
      settings: null,
      result: null,
      createdBy: caller.userId,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      deadlineAt: null,
      finishedAt: null,
      ruleDepth: options.ruleDepth ?? 0,
      requestedByExecution: options.requestedByExecution ?? null,
    });
    return { check, dto, builtIn };
  }

  /** A check of the caller's tenant that the caller's role access rules let it read (else 404, as if it did not exist). */
  async get(caller: Caller, checkId: string): Promise<CheckEntity> {
    const check = caller.accessRules.length
      ? await this.readable(
          caller,
          this.checks
            .createQueryBuilder('c')
            .where('c.tenantId = :tenant AND c.id = :id', { tenant: caller.tenantId, id: checkId }),
        ).getOne()
      : await findOneRaw(this.checks, { tenantId: caller.tenantId, id: checkId });
    if (!check) throw new CheckException(CheckErrorCode.CheckNotFound, `check ${checkId} not found`);
    return check;
  }

  /**
   * GET /v1/checks/{id}: get() as the response's check JSON, its result copied as JSON text from
   * the database (presentCheckJson). Callers with role access rules go through get().
   */
  async getJson(caller: Caller, checkId: string): Promise<string> {
    if (caller.accessRules.length) return JSON.stringify(presentCheck(await this.get(caller, checkId)));
    this.getJsonSql ??= `SELECT ${PRESENTED_PROPERTIES.map((property) => `c."${this.checks.metadata.findColumnWithPropertyName(property)!.databaseName}"`).join(', ')}, ${RESULT_JSON_SQL} AS result_json
      FROM checks c WHERE c.tenant_id = $1 AND c.id = $2`;
    const [row] = await preparedQuery<Record<string, unknown> & { result_json: string | null }>(
      this.checks.manager.connection,
      'checks.get_json',
      this.getJsonSql,
      [caller.tenantId, checkId],
    );
    if (!row) throw new CheckException(CheckErrorCode.CheckNotFound, `check ${checkId} not found`);
    return presentCheckJson(mapRow<PresentedCheck>(this.checks, row), row.result_json);
  }

  list(caller: Caller, query: ListChecksQuery): Promise<Page<CheckEntity>> {
    const qb = this.readable(
      caller,
      this.checks.createQueryBuilder('c').where('c.tenantId = :tenant', { tenant: caller.tenantId }),
    );
    if (query.report_id) qb.andWhere('c.reportId = :report', { report: query.report_id });
    return paginate(qb, { startKey: query.start_key, limit: PAGE_SIZE });
  }

  /** The details of a check: one per database consulted (or skipped), labels in `lang`. */
  async details(caller: Caller, checkId: string, query: CheckDetailsQuery) {
    const check = await this.get(caller, checkId);
    const qb = this.databases
      .createQueryBuilder('d')
      .where('d.tenantId = :tenant AND d.checkId = :check', { tenant: caller.tenantId, check: check.id });
    const page = await paginate(qb, { startKey: query.start_key, limit: DETAILS_PAGE_SIZE });
    const ctx = {
      lang: query.lang,
      namesMatching: this.engine.settingsOf(check).namesMatching,
      searchedName: searchedName(check),
      type: check.type,
    };
    return {
      items: page.items.map((row) => presentDetail(row, { ...ctx, collector: this.registry.get(row.databaseId) })),
      nextKey: page.nextKey,
    };
  }

  async attachments(caller: Caller, checkId: string) {
    const check = await this.get(caller, checkId);
    const rows = await this.databases.find({
      where: { tenantId: caller.tenantId, checkId: check.id },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return presentAttachments(rows);
  }

  /** Deletes a check with its databases and details; jobs still queued for it find nothing and end. */
  async remove(caller: Caller, checkId: string): Promise<void> {
    if (caller.accessRules.length) await this.get(caller, checkId);
    const { affected } = await this.checks.delete({ tenantId: caller.tenantId, id: checkId });
    if (!affected) throw new CheckException(CheckErrorCode.CheckNotFound, `check ${checkId} not found`);
  }

  /**
   * Role access rules (JSON-Logic, every rule must hold) as SQL next to the tenant filter. A rule
   * that does not translate denies everything rather than being skipped.
   */
  private readable(caller: Caller, qb: SelectQueryBuilder<CheckEntity>): SelectQueryBuilder<CheckEntity> {
    if (!caller.accessRules.length) return qb;
    const where = accessRulesWhere(caller.accessRules, CHECK_ACCESS_RULE_SQL, {
      namedPrefix: 'ar',
      onRefused: (err) =>
        this.logger.warn({
          msg: 'role access rule refused: it denies every check',
          tenant_id: caller.tenantId,
          role: caller.role,
          error: err.message,
        }),
    });
    return qb.andWhere(`(${where.sql})`, where.params);
  }

  /** user_authorized must be true when given, and is required from API key version 1 on. */
  private consentError(caller: Caller, given: boolean | undefined, errors: FieldError[]): FieldError | undefined {
    if (errors.some((e) => e.field === 'user_authorized')) return undefined;
    if (given === false || (given === undefined && caller.keyVersion >= 1))
      return { field: 'user_authorized', message: 'user_authorized must be true: the person must authorize the check' };
    return undefined;
  }
}
