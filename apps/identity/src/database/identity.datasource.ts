import { EntityClass, PLATFORM_MIGRATIONS, serviceDataSourceOptions } from '@kyc/platform';
import { DataSource } from 'typeorm';

import { ApiKeyEntity } from '../api-keys/api-key.entity';
import { CreateApiKeys1763769603000 } from './migrations/1763769603000-create-api-keys';

export const identityEntities: EntityClass[] = [ApiKeyEntity];
export const identityMigrations = [...PLATFORM_MIGRATIONS, CreateApiKeys1763769603000];

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(
  serviceDataSourceOptions({
    url: process.env.DATABASE_URL ?? '',
    schema: process.env.DB_SCHEMA ?? 'identity',
    entities: identityEntities,
    migrations: identityMigrations,
  }),
);
