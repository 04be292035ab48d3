import {
  EntityClass,
  PLATFORM_MIGRATIONS,
  PlatformJobs1763769700000,
  PlatformJobsClaim1763770800000,
  PlatformTables1763769600000,
  serviceDataSourceOptions,
} from '@kyc/platform';
import { DataSource } from 'typeorm';

import { loadPassConfig } from '../config/pass.config';

/** Entities and migrations of the pass schema, in order. Features add theirs here. */
export const passEntities: EntityClass[] = [];
export const passMigrations = [...PLATFORM_MIGRATIONS];

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(
  serviceDataSourceOptions({
    url: process.env.DATABASE_URL ?? '',
    schema: process.env.DB_SCHEMA ?? 'pass',
    entities: passEntities,
    migrations: passMigrations,
  }),
);
