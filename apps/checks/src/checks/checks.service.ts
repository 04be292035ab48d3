import { AppException, Caller, Clock, Page, paginate } from '@kyc/platform';
import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';

import { CollectorRegistry } from '../collectors/collector.registry';
import { CheckEntity } from '../engine/check.entity';
import { CheckStore, StoreOutcome } from '../engine/check.store';
import { CheckDatabaseEntity } from '../engine/check-database.entity';
import { searchedName, settingsOf } from '../engine/settlement';
import {
  presentAttachments,
  presentCheck,
  presentCheckJson,
  presentDetail,
  PRESENTED_PROPERTIES,
} from './check.presenter';
import { readableBy } from './check-access.sql';
import { CreateCheckOptions as PrepareOptions, prepareCheck, PreparedCheck, unknownType } from './check-preparation';
import { CheckErrorCode, CheckException } from './checks.exception';
import { CheckDetailsQuery } from './dto/check-details.query';
import { ListChecksQuery } from './dto/list-checks.query';

export { CHECK_ACCESS_RULE_SQL } from './check-access.sql';
export { newCheckId } from './check-id';

const PAGE_SIZE = 20;
const DETAILS_PAGE_SIZE = 10;

/** One result of ChecksService.createMany: the check (created, or a recent one with the same inputs), or why it was refused. */
export type CreateManyResult =
  | { check: CheckEntity; created: boolean; error?: undefined }
  | { error: AppException; check?: undefined; created?: undefined };

export interface CreateCheckOptions extends PrepareOptions {
  /** Create the check in this transaction (e.g. an inbox effect), committing with the caller's work. */
  manager?: EntityManager;
}

/**
 * Checks: creation, reads and deletion. The engine (engine/engine.worker.ts) runs them; its
 * CheckStore stores them.
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

  constructor(
    @InjectRepository(CheckEntity) private readonly checks: Repository<CheckEntity>,
    @InjectRepository(CheckDatabaseEntity) private readonly databases: Repository<CheckDatabaseEntity>,
    private readonly store: CheckStore,
    private readonly clock: Clock,
    private readonly registry: CollectorRegistry,
  ) {}

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
    const prepared = prepareCheck(caller, body, options, this.clock.now());
    const result = await this.store.createOne(prepared, options.manager);
    if (result.outcome === 'unknown_type') throw unknownType(prepared.dto);
    if (result.outcome === 'created') return { check: prepared.check, created: true };
    return { check: await this.get(caller, result.id), created: false };
  }

  /**
   * Creates many checks in the caller's transaction (batches): each body is validated with exactly
   * the rules of create() and a refused one gets its exception in its place instead of throwing;
   * the others are stored as create() stores them, in one statement. Results are in the order of
   * `bodies`. A body without force_creation gets a recent check with identical inputs instead,
   * also one of an earlier body of the same call.
   */
  async createMany(
    caller: Caller,
    bodies: Record<string, unknown>[],
    manager: EntityManager,
  ): Promise<CreateManyResult[]> {
    const now = this.clock.now();
    const results = new Array<CreateManyResult | undefined>(bodies.length);
    const storing: { i: number; item: PreparedCheck }[] = [];
    /** Bodies that get the check of an earlier body with their inputs: index -> that body's index. */
    const follows = new Map<number, number>();
    const latestWith = new Map<string, number>();
    bodies.forEach((body, i) => {
      try {
        const item = prepareCheck(caller, body, {}, now);
        const earlier = latestWith.get(item.check.inputHash);
        if (earlier !== undefined && !item.force) follows.set(i, earlier);
        else {
          storing.push({ i, item });
          latestWith.set(item.check.inputHash, i);
        }
      } catch (err) {
        if (!(err instanceof AppException) || err.status >= 500) throw err;
        results[i] = { error: err };
      }
    });
    const outcomes = await this.store.create(
      storing.map((s) => s.item),
      manager,
    );
    const existing = outcomes.filter((o) => o.outcome === 'existing').map((o) => o.id);
    const found = existing.length
      ? await manager.findBy(CheckEntity, { tenantId: caller.tenantId, id: In([...new Set(existing)]) })
      : [];
    const byId = new Map(found.map((c) => [c.id, c]));
    storing.forEach(({ i, item }, n) => (results[i] = this.createResult(item, outcomes[n], byId)));
    for (const [i, earlier] of follows) {
      const first = results[earlier]!;
      results[i] = first.error ? first : { check: first.check, created: false };
    }
    return results as CreateManyResult[];
  }

  private createResult(item: PreparedCheck, stored: StoreOutcome, byId: Map<string, CheckEntity>): CreateManyResult {
    if (stored.outcome === 'unknown_type') return { error: unknownType(item.dto) };
    if (stored.outcome === 'created') return { check: item.check, created: true };
    const check = byId.get(stored.id);
    return check
      ? { check, created: false }
      : { error: new CheckException(CheckErrorCode.CheckNotFound, `check ${stored.id} not found`) };
  }

  /** A check of the caller's tenant that the caller's role access rules let it read (else 404, as if it did not exist). */
  async get(caller: Caller, checkId: string): Promise<CheckEntity> {
    const check = caller.accessRules.length
      ? await readableBy(
          caller,
          this.checks
            .createQueryBuilder('c')
            .where('c.tenantId = :tenant AND c.id = :id', { tenant: caller.tenantId, id: checkId }),
          this.logger,
        ).getOne()
      : await this.store.findForTenant(caller.tenantId, checkId);
    if (!check) throw new CheckException(CheckErrorCode.CheckNotFound, `check ${checkId} not found`);
    return check;
  }

  /**
   * GET /v1/checks/{id}: get() as the response's check JSON, its result copied as JSON text from
   * the database (presentCheckJson). Callers with role access rules go through get().
   */
  async getJson(caller: Caller, checkId: string): Promise<string> {
    if (caller.accessRules.length) return JSON.stringify(presentCheck(await this.get(caller, checkId)));
    const row = await this.store.presented(caller.tenantId, checkId, PRESENTED_PROPERTIES);
    if (!row) throw new CheckException(CheckErrorCode.CheckNotFound, `check ${checkId} not found`);
    return presentCheckJson(row.check, row.resultJson);
  }

  list(caller: Caller, query: ListChecksQuery): Promise<Page<CheckEntity>> {
    const qb = readableBy(
      caller,
      this.checks.createQueryBuilder('c').where('c.tenantId = :tenant', { tenant: caller.tenantId }),
      this.logger,
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
      namesMatching: settingsOf(check).namesMatching,
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
}
