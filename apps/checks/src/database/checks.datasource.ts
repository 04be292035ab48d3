import { EntityClass, PLATFORM_MIGRATIONS, serviceDataSourceOptions } from '@kyc/platform';
import { DataSource } from 'typeorm';

import { BatchEntity } from '../batches/batch.entity';
import { ContinuousCheckEntity } from '../continuous-checks/continuous-check.entity';
import { ContinuousCheckRunEntity } from '../continuous-checks/continuous-check-run.entity';
import { CollectorCredentialEntity } from '../credentials/collector-credential.entity';
import { CustomTypeEntity } from '../custom-types/custom-type.entity';
import { CheckEntity } from '../engine/check.entity';
import { CheckDatabaseEntity } from '../engine/check-database.entity';
import { CheckPdfEntity } from '../pdf/check-pdf.entity';
import { CheckSettingsEntity } from '../settings/check-settings.entity';
import { CreateChecks1763769601000 } from './migrations/1763769601000-create-checks';
import { CheckEngine1763770100000 } from './migrations/1763770100000-check-engine';
import { ContinuousChecksAndPdfs1763770600000 } from './migrations/1763770600000-continuous-checks-and-pdfs';
import { Batches1763770700000 } from './migrations/1763770700000-batches';
import { ResultWithoutNulls1763770900000 } from './migrations/1763770900000-result-without-nulls';
import { ResultAsJson1763771000000 } from './migrations/1763771000000-result-as-json';
import { BatchUploadAttempts1764300000000 } from './migrations/1764300000000-batch-upload-attempts';
import { ChecksStartWithoutJob1764400000000 } from './migrations/1764400000000-checks-start-without-job';
import { EngineLeanerWrites1764500000000 } from './migrations/1764500000000-engine-leaner-writes';

export const checksEntities: EntityClass[] = [
  CheckEntity,
  CheckDatabaseEntity,
  CustomTypeEntity,
  CheckSettingsEntity,
  CollectorCredentialEntity,
  ContinuousCheckEntity,
  ContinuousCheckRunEntity,
  CheckPdfEntity,
  BatchEntity,
];
export const checksMigrations = [
  ...PLATFORM_MIGRATIONS,
  CreateChecks1763769601000,
  CheckEngine1763770100000,
  ContinuousChecksAndPdfs1763770600000,
  Batches1763770700000,
  ResultWithoutNulls1763770900000,
  ResultAsJson1763771000000,
  BatchUploadAttempts1764300000000,
  ChecksStartWithoutJob1764400000000,
  EngineLeanerWrites1764500000000,
];

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(
  serviceDataSourceOptions({
    url: process.env.DATABASE_URL ?? '',
    schema: process.env.DB_SCHEMA ?? 'checks',
    entities: checksEntities,
    migrations: checksMigrations,
  }),
);
