import {
  EntityClass,
  PLATFORM_MIGRATIONS,
  PlatformJobs1763769700000,
  PlatformJobsClaim1763770800000,
  PlatformTables1763769600000,
  serviceDataSourceOptions,
} from '@kyc/platform';
import { DataSource } from 'typeorm';

import { loadValidationsConfig } from '../config/validations.config';

/** Entities and migrations of the validations schema, in order. Features add theirs here. */
export const validationsEntities: EntityClass[] = [];
export const validationsMigrations = [...PLATFORM_MIGRATIONS];

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(
  serviceDataSourceOptions({
    url: process.env.DATABASE_URL ?? '',
    schema: process.env.DB_SCHEMA ?? 'validations',
    entities: validationsEntities,
    migrations: validationsMigrations,
  }),
);
