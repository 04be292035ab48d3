import { EntityClass, PLATFORM_MIGRATIONS, serviceDataSourceOptions } from '@kyc/platform';
import { DataSource } from 'typeorm';

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
