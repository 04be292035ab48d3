import {
  captureTraceContext,
  GroupCommit,
  JobQueueService,
  OutboxService,
  tracingActive,
  writeQuery,
} from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { ChecksConfig } from '../config/checks.config';
import { START_QUEUE, StartJob } from '../engine/engine.types';
import { createdEvent, PreparedCheck } from './check-preparation';

/** What storing a check gave: created, an existing recent one with its inputs, or its custom type is unknown. */
export interface StoreOutcome {
  outcome: 'created' | 'existing' | 'unknown_type';
  id: string;
}

/**
 * Stores a group of checks (the JSON recordset $1), their created events ($3) and start jobs ($4);
 * per check: created, an existing recent one with its inputs ($2 seconds), or unknown custom type.
 * It also copies the custom type's weights and the tenant's settings onto the check. Planned per
 * call, never as a prepared statement: the de-duplication lookup's best index depends on the
 * table's size, and a plan cached while checks was nearly empty scanned every recent check of the
 * tenant for each new one.
 */
const storeSql = (outbox: OutboxService, jobs: JobQueueService) => `WITH r AS (
     SELECT r.*, ct.weights AS custom_weights, (r.built_in OR ct.weights IS NOT NULL) AS known
       FROM jsonb_to_recordset($1::jsonb) AS r(i int, id text, tenant_id text, country text, type text, inputs jsonb, input_hash text, force boolean, built_in boolean,
                                                custom_input text, report_id text, user_authorized boolean, created_by text, created_at timestamptz, region text,
                                                previous_check text, rule_depth int, requested_by_execution text)
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
     ${outbox.insertSql('$3', 'e.message_key IN (SELECT id FROM ins)')}
   ), job AS (
     ${jobs.insertSql('$4', "j.payload->>'check_id' IN (SELECT id FROM ins)")}
   )
   SELECT r.i, CASE WHEN NOT r.known THEN 'unknown_type' WHEN d.recent_id IS NOT NULL THEN 'existing' ELSE 'created' END AS outcome, COALESCE(d.recent_id, r.id) AS id
     FROM r LEFT JOIN d ON d.i = r.i ORDER BY r.i`;

/**
 * The one way checks are written at creation: one statement (storeSql) for any number of checks.
 * Without a caller's transaction, concurrent creations are grouped: those that arrive while
 * CHECKS_CREATE_GROUP_IN_FLIGHT statements run are stored together by the next (one commit and
 * WAL flush for many checks). A check with the inputs of one before it that is waiting or being
 * stored (and no force_creation) waits for a later statement, so it is de-duplicated against it.
 */
@Injectable()
export class CheckStore {
  private readonly text: string;
  private readonly creations: GroupCommit<PreparedCheck, StoreOutcome>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly jobs: JobQueueService,
    private readonly config: ChecksConfig,
  ) {
    this.text = storeSql(outbox, jobs);
    this.creations = new GroupCommit((items) => this.store(items), {
      maxBatch: 200,
      maxInFlight: config.CHECKS_CREATE_GROUP_IN_FLIGHT,
      ordering: { key: ({ check }) => `${check.tenantId}:${check.inputHash}`, mustSeeEarlier: (item) => !item.force },
    });
  }

  /** Stores one check: in the caller's transaction with `manager`, else grouped with concurrent ones. */
  storeOne(item: PreparedCheck, manager?: EntityManager): Promise<StoreOutcome> {
    if (manager) return this.store([item], manager).then(([outcome]) => outcome);
    if (tracingActive()) item.trace = captureTraceContext();
    return this.creations.submit(item);
  }

  /**
   * Stores checks with their created events and start jobs in one statement (its own transaction
   * when no manager is given) and says, per check in order, what became of it.
   */
  async store(items: PreparedCheck[], manager?: EntityManager): Promise<StoreOutcome[]> {
    if (!items.length) return [];
    const checks = items.map(({ check, builtIn, force }, i) => ({
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
    }));
    // An item's trace (captured by storeOne), else the active one (undefined: captured by row()).
    const events = items.map(({ check, trace }) => this.outbox.row(createdEvent(check, trace)));
    const startJobs = items.map(({ check, trace }) =>
      this.jobs.row<StartJob>(
        START_QUEUE,
        { check_id: check.id },
        { tenantId: check.tenantId, maxAttempts: 10, runAt: check.createdAt, traceContext: trace },
      ),
    );
    const rows = await writeQuery<StoreOutcome & { i: number }>(
      this.dataSource,
      this.text,
      [
        JSON.stringify(checks),
        this.config.CHECKS_DEDUP_WINDOW_SECONDS,
        JSON.stringify(events),
        JSON.stringify(startJobs),
      ],
      manager,
    );
    return rows.map(({ outcome, id }) => ({ outcome, id }));
  }
}
