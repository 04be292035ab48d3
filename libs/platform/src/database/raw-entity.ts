import type { Pool, PoolClient } from 'pg';
import { DataSource, EntityManager, EntityMetadata, ObjectLiteral, Repository } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { ApplyValueTransformers } from 'typeorm/util/ApplyValueTransformers';

import { signalCommit } from './commit-signal';
import { withClient } from './pooled-client';

// The platform's one raw-query API: rawQuery, writeQuery, preparedQuery and mapRow (findOneRaw on top).
// Apps call it only from a `*.store.ts` (its SQL in a `*.sql.ts` beside it) and migrations; ESLint
// forbids pgPool, manager.query and dataSource.query everywhere else (docs/development.md, "Data access").

/** The pg pool under a TypeORM DataSource (for statements sent without TypeORM on hot paths). */
export function pgPool(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
}

/** withClient on the pg pool under a TypeORM DataSource. */
export function withPooledClient<T>(dataSource: DataSource, work: (client: PoolClient) => Promise<T>): Promise<T> {
  return withClient(pgPool(dataSource), work);
}

/**
 * Runs a statement unnamed (planned for its parameters at each call): in the caller's transaction
 * when `manager` is given, else straight on the pg pool. Does not wake the outbox relay or the job
 * queue: a statement that adds events or jobs outside a transaction goes through writeQuery.
 * For statements whose best plan changes as their tables grow (a queue's backlog, a join with a
 * table that grows by thousands of rows a second): a named statement's generic plan, chosen on
 * the first executions against a small table, stays until the next ANALYZE (seen: a job-queue
 * look that scanned the whole jobs table on every wake-up).
 */
export async function rawQuery<T = Record<string, unknown>>(
  dataSource: DataSource,
  text: string,
  values: unknown[],
  manager?: EntityManager,
): Promise<T[]> {
  if (manager) return manager.query<T[]>(text, values);
  return (await pgPool(dataSource).query(text, values)).rows as T[];
}

/**
 * Runs a statement that writes: in the caller's transaction when `manager` is given, else alone on
 * the pool (rawQuery), as its own autocommit transaction, after which the outbox relay and the job
 * queue are woken as after a TypeORM commit. For statements that add outbox events or jobs with
 * OutboxService.insertSql / JobQueueService.insertSql: the caller has nothing more to signal.
 */
export async function writeQuery<T = Record<string, unknown>>(
  dataSource: DataSource,
  text: string,
  values: unknown[],
  manager?: EntityManager,
): Promise<T[]> {
  if (manager) return manager.query<T[]>(text, values);
  const rows = await rawQuery<T>(dataSource, text, values);
  signalCommit();
  return rows;
}

/**
 * Runs a hot statement as a named prepared statement straight on pg (parsed and planned once per
 * connection, and without TypeORM's query runner per call): on the pool, or on the connection of
 * the caller's transaction when a manager is given. `name` must identify `text` for the life of
 * the process. Only for statements whose plan does not depend on table sizes (primary key and
 * unique lookups, writes by id): see rawQuery.
 */
export async function preparedQuery<T = Record<string, unknown>>(
  dataSource: DataSource,
  name: string,
  text: string,
  values: unknown[],
  manager?: EntityManager,
): Promise<T[]> {
  if (manager) {
    const runner = manager.queryRunner;
    // Outside a transaction (no query runner, or one released) TypeORM would take any pooled connection: the pool does the same.
    if (!runner || runner.isReleased) return manager.query(text, values);
    const client = (await runner.connect()) as PoolClient;
    return (await client.query({ name, text, values })).rows as T[];
  }
  return (await pgPool(dataSource).query({ name, text, values })).rows as T[];
}

interface ReadPlan {
  name: string;
  text: string;
  properties: string[];
}
const plans = new WeakMap<EntityMetadata, Map<string, ReadPlan>>();

function readPlan(meta: EntityMetadata, properties: string[]): ReadPlan {
  let byKey = plans.get(meta);
  if (!byKey) plans.set(meta, (byKey = new Map<string, ReadPlan>()));
  const key = properties.join(',');
  let plan = byKey.get(key);
  if (!plan) {
    const conditions = properties.map((property, i) => {
      const column = meta.findColumnWithPropertyName(property);
      if (!column) throw new Error(`${meta.name} has no column ${property}`);
      return `"${column.databaseName}" = $${i + 1}`;
    });
    const table = [meta.schema, meta.tableName]
      .filter(Boolean)
      .map((part) => `"${part}"`)
      .join('.');
    const text = `SELECT * FROM ${table} WHERE ${conditions.join(' AND ')} LIMIT 1`;
    plan = { name: `raw:${table}:${key}`, text, properties };
    byKey.set(key, plan);
  }
  return plan;
}

/**
 * Reads one row by plain column equality with a single prepared SQL statement and maps it onto the
 * entity by its column metadata, skipping TypeORM's query builder and query runner (a measurable
 * share of CPU on hot read paths such as GET /v1/checks/{id}). `where` keys are entity property names.
 */
export async function findOneRaw<T extends ObjectLiteral>(
  repo: Repository<T>,
  where: Partial<Record<keyof T & string, unknown>>,
): Promise<T | null> {
  const properties = Object.keys(where);
  const plan = readPlan(repo.metadata, properties);
  const rows = await preparedQuery(
    repo.manager.connection,
    plan.name,
    plan.text,
    properties.map((p) => where[p as keyof T & string]),
  );
  return rows.length ? mapRow(repo, rows[0]) : null;
}

/**
 * Maps a raw `SELECT *` row (database column names) onto a new entity instance, through each
 * column's transformer as TypeORM's own reads do (values otherwise as pg parses them).
 */
export function mapRow<T extends ObjectLiteral>(repo: Repository<T>, row: Record<string, unknown>): T {
  const meta = repo.metadata;
  const entity = (
    typeof meta.target === 'function' ? (Object.create(meta.target.prototype as object) as object) : {}
  ) as Record<string, unknown>;
  for (const column of meta.columns) {
    if (!(column.databaseName in row)) continue;
    const value = row[column.databaseName];
    entity[column.propertyName] = column.transformer
      ? (ApplyValueTransformers.transformFrom(column.transformer, value) as unknown)
      : value;
  }
  return entity as T;
}
