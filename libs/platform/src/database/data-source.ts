import { Client } from 'pg';
import { DataSource, DataSourceOptions, MigrationInterface } from 'typeorm';

import { CommitSignalSubscriber } from './commit-signal';
import { searchPathOption } from './pooled-client';

export interface ServiceDataSourceInput {
  url: string;
  schema: string;
  entities: Function[];
  migrations: (new () => MigrationInterface)[];
  poolSize?: number;
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
    extra: { max: input.poolSize ?? 20, options: searchPathOption(input.schema) },
  };
}

/** Creates the schema if needed and runs pending migrations under an advisory lock (safe with replicas). */
export async function migrateSchema(input: ServiceDataSourceInput): Promise<string[]> {
  const client = new Client({ connectionString: input.url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${input.schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${input.schema}"`);
    const ds = new DataSource({
      ...serviceDataSourceOptions(input),
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
