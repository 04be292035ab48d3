import { DataSource } from 'typeorm';
import { PlatformJobs1763769700000, PlatformTables1763769600000, serviceDataSourceOptions } from '@kyc/platform';
import { CheckEntity } from '../checks/check.entity';
import { CreateChecks1763769601000 } from './migrations/1763769601000-create-checks';

export const checksEntities: Function[] = [CheckEntity];
export const checksMigrations = [PlatformTables1763769600000, PlatformJobs1763769700000, CreateChecks1763769601000];

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(
  serviceDataSourceOptions({ url: process.env.DATABASE_URL ?? '', schema: process.env.DB_SCHEMA ?? 'checks', entities: checksEntities, migrations: checksMigrations }),
);
