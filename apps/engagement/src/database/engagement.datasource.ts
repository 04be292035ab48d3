import {
  EntityClass,
  PLATFORM_MIGRATIONS,
  PlatformJobs1763769700000,
  PlatformJobsClaim1763770800000,
  PlatformTables1763769600000,
  serviceDataSourceOptions,
} from '@kyc/platform';
import { DataSource } from 'typeorm';

import { loadEngagementConfig } from '../config/engagement.config';

/** Entities and migrations of the engagement schema, in order. Features add theirs here. */
export const engagementEntities: EntityClass[] = [];
export const engagementMigrations = [...PLATFORM_MIGRATIONS];

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(
  serviceDataSourceOptions({
    url: process.env.DATABASE_URL ?? '',
    schema: process.env.DB_SCHEMA ?? 'engagement',
    entities: engagementEntities,
    migrations: engagementMigrations,
  }),
);
