import { DataSource } from 'typeorm';
import { PlatformJobs1763769700000, PlatformTables1763769600000, serviceDataSourceOptions } from '@kyc/platform';
import { CheckEntity } from '../checks/check.entity';
import { CollectorCredentialEntity } from '../credentials/collector-credential.entity';
import { CustomTypeEntity } from '../custom-types/custom-type.entity';
import { CheckDatabaseEntity } from '../engine/check-database.entity';
import { CheckSettingsEntity } from '../settings/check-settings.entity';
import { CreateChecks1763769601000 } from './migrations/1763769601000-create-checks';
import { CheckEngine1763770100000 } from './migrations/1763770100000-check-engine';

export const checksEntities: Function[] = [CheckEntity, CheckDatabaseEntity, CustomTypeEntity, CheckSettingsEntity, CollectorCredentialEntity];
export const checksMigrations = [PlatformTables1763769600000, PlatformJobs1763769700000, CreateChecks1763769601000, CheckEngine1763770100000];

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(
  serviceDataSourceOptions({ url: process.env.DATABASE_URL ?? '', schema: process.env.DB_SCHEMA ?? 'checks', entities: checksEntities, migrations: checksMigrations }),
);
