import { Client } from 'pg';
import { DataSource, DataSourceOptions, MigrationInterface } from 'typeorm';

import { CommitSignalSubscriber } from './commit-signal';
import { searchPathOption } from './pooled-client';

/** An entity class, as TypeORM lists entities (its DataSourceOptions take any Function). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for entity classes
export type EntityClass = Function;

export interface ServiceDataSourceInput {
  url: string;
  schema: string;
  entities: EntityClass[];
  migrations: (new () => MigrationInterface)[];
  poolSize?: number;
  /** Through a transaction-mode pooler: no startup search_path (the pooler sets it; see PlatformConfig.DB_TRANSACTION_POOLER). */
  transactionPooler?: boolean;
}

/**
 * One schema + DataSource per service: tables live in `<schema>`, the search_path points there
 * (so platform SQL such as the outbox is unqualified), migrations have their own table in the
 * schema, and the schema is never synchronized.
 */
export function serviceDataSourceOptions(input: ServiceDataSourceInput): DataSourceOptions {
  return {
    type: 'postgres',
    url: input.url,
    schema: input.schema,
    entities: input.entities,
    migrations: input.migrations,
    subscribers: [CommitSignalSubscriber],
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    extra: {
      max: input.poolSize ?? 20,
      ...(input.transactionPooler ? {} : { options: searchPathOption(input.schema) }),
    },
  };
}

/** Creates the schema if needed and runs pending migrations under an advisory lock (safe with replicas). */
export async function migrateSchema(input: ServiceDataSourceInput): Promise<string[]> {
  const client = new Client({ connectionString: input.url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${input.schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${input.schema}"`);
    // Migrations always run on PostgreSQL itself (the caller passes DATABASE_DIRECT_URL): the advisory lock is the session's.
    const ds = new DataSource({
      ...serviceDataSourceOptions({ ...input, transactionPooler: false }),
      poolSize: 2,
      extra: { max: 2, options: searchPathOption(input.schema) },
    } as DataSourceOptions);
    await ds.initialize();
    try {
      const ran = await ds.runMigrations({ transaction: 'each' });
      return ran.map((m) => m.name);
    } finally {
      await ds.destroy();
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${input.schema}`]).catch(() => undefined);
    await client.end();
  }
}

/** Reverts the last migration of a schema. */
export async function revertLastMigration(input: ServiceDataSourceInput): Promise<void> {
  const ds = new DataSource(serviceDataSourceOptions(input));
  await ds.initialize();
  try {
    await ds.undoLastMigration({ transaction: 'each' });
  } finally {
    await ds.destroy();
  }
}
