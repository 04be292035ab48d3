import { EntityClass, PLATFORM_MIGRATIONS, serviceDataSourceOptions } from '@kyc/platform';
import { DataSource } from 'typeorm';

/** Entities and migrations of the customers schema, in order. Features add theirs here. */
export const customersEntities: EntityClass[] = [];
export const customersMigrations = [...PLATFORM_MIGRATIONS];

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(
  serviceDataSourceOptions({
    url: process.env.DATABASE_URL ?? '',
    schema: process.env.DB_SCHEMA ?? 'customers',
    entities: customersEntities,
    migrations: customersMigrations,
  }),
);
