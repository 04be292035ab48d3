import {
  EntityClass,
  PLATFORM_MIGRATIONS,
  PlatformJobs1763769700000,
  PlatformJobsClaim1763770800000,
  PlatformTables1763769600000,
  serviceDataSourceOptions,
} from '@kyc/platform';
import { DataSource } from 'typeorm';

import { loadCustomersConfig } from '../config/customers.config';

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
