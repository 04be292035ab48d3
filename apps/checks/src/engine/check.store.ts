import {
  captureTraceContext,
  currentRequestId,
  findOneRaw,
  GroupCommit,
  mapRow,
  OutboxService,
  preparedQuery,
  TraceCarrier,
  tracingActive,
  writeQuery,
} from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { ChecksConfig } from '../config/checks.config';
import { CheckEntity } from './check.entity';
import { createSql, presentedCheckSql } from './check.sql';
import { createdEvent } from './check-record';

/** A new check (not stored) with what its store needs to know. */
export interface NewCheck {
  check: CheckEntity;
  builtIn: boolean;
  /** force_creation: no de-duplication against a recent check with the same inputs. */
  force: boolean;
  /**
   * The trace context of the request that creates it (when tracing runs), captured before the
   * check joins a group: its event and start job continue that request's trace, not the trace
   * of whichever request's statement stores the group.
   */
  trace?: TraceCarrier | null;
  /** The id of the request that creates it (captured before it joins a group), continued by its start. */
  correlationId?: string | null;
}

/** What storing a check gave: created, an existing recent one with its inputs, or its custom type is unknown. */
export interface StoreOutcome {
  outcome: 'created' | 'existing' | 'unknown_type';
  id: string;
}

/** Statements of CheckStore.presented (name and text), per property list, built on first use (names last as long as the process). */
const presentedStatements = new Map<string, { name: string; text: string }>();

/**
 * A check's creation and its reads by the API: the one writer of new checks (INSERT INTO checks)
 * with their created events (a new check is its own start work item: no start job), each one statement of check.sql.ts through the
 * platform's raw-query API. Once stored, a check's run (its state, result, databases and collector
 * runs) is written by the engine's CheckRunStore only.
 *
 * Creation: one statement (createSql) for any number of checks. Without a caller's transaction,
 * concurrent creations are grouped: those that arrive while CHECKS_CREATE_GROUP_IN_FLIGHT
 * statements run are stored together by the next (one commit and WAL flush for many checks). A
 * check with the inputs of one before it that is waiting or being stored (and no force_creation)
 * waits for a later statement, so it is de-duplicated against it.
 */
@Injectable()
export class CheckStore {
  private readonly createText: string;
  private readonly creations: GroupCommit<NewCheck, StoreOutcome>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly config: ChecksConfig,
  ) {
    this.createText = createSql(outbox);
    this.creations = new GroupCommit((items) => this.create(items), {
      maxBatch: 200,
      maxInFlight: config.CHECKS_CREATE_GROUP_IN_FLIGHT,
      ordering: { key: ({ check }) => `${check.tenantId}:${check.inputHash}`, mustSeeEarlier: (item) => !item.force },
    });
  }

  /** Stores one check: in the caller's transaction with `manager`, else grouped with concurrent ones. */
  createOne(item: NewCheck, manager?: EntityManager): Promise<StoreOutcome> {
    if (manager) return this.create([item], manager).then(([outcome]) => outcome);
    if (tracingActive()) item.trace = captureTraceContext();
    item.correlationId = currentRequestId() ?? null;
    return this.creations.submit(item);
  }

  /**
   * Stores checks (each waiting to start) with their created events in one statement (its own transaction
   * when no manager is given) and says, per check in order, what became of it.
   */
  async create(items: NewCheck[], manager?: EntityManager): Promise<StoreOutcome[]> {
    if (!items.length) return [];
    const traced = tracingActive();
    const checks = items.map(({ check, builtIn, force, trace, correlationId }, i) => ({
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
      // What a start job carried: the creating request's id and trace, continued by the start.
      correlation_id: correlationId === undefined ? (currentRequestId() ?? null) : correlationId,
      trace_context: traced ? (trace === undefined ? captureTraceContext() : trace) : null,
    }));
    // An item's trace (captured by createOne), else the active one (undefined: captured by row()).
    const events = items.map(({ check, trace }) => this.outbox.row(createdEvent(check, trace)));
    const rows = await writeQuery<StoreOutcome & { i: number }>(
      this.dataSource,
      this.createText,
      [JSON.stringify(checks), this.config.CHECKS_DEDUP_WINDOW_SECONDS, JSON.stringify(events)],
      manager,
    );
    return rows.map(({ outcome, id }) => ({ outcome, id }));
  }

  /**
   * The given properties of a check of a tenant and its result as JSON text as stored (GET
   * /v1/checks/{id}: the result is neither parsed nor serialized again), or null.
   */
  async presented<K extends keyof CheckEntity>(
    tenantId: string,
    checkId: string,
    properties: readonly K[],
  ): Promise<{ check: Pick<CheckEntity, K>; resultJson: string | null } | null> {
    const key = properties.join(',');
    let statement = presentedStatements.get(key);
    if (!statement) {
      const metadata = this.dataSource.getMetadata(CheckEntity);
      const columns = properties.map((p) => metadata.findColumnWithPropertyName(p as string)!.databaseName);
      statement = { name: `checks.presented.${presentedStatements.size}`, text: presentedCheckSql(columns) };
      presentedStatements.set(key, statement);
    }
    const [row] = await preparedQuery<Record<string, unknown> & { result_json: string | null }>(
      this.dataSource,
      statement.name,
      statement.text,
      [tenantId, checkId],
    );
    if (!row) return null;
    return { check: mapRow(this.dataSource.getRepository(CheckEntity), row), resultJson: row.result_json };
  }

  /** The tenant's check by id (SELECT * as a named prepared statement, through the columns' transformers). */
  findForTenant(tenantId: string, id: string): Promise<CheckEntity | null> {
    return findOneRaw(this.dataSource.getRepository(CheckEntity), { tenantId, id });
  }
}
