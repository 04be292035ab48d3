import { EntityClass, PLATFORM_MIGRATIONS, serviceDataSourceOptions } from '@kyc/platform';
import { DataSource } from 'typeorm';

import { ValidatorAccountEntity } from '../accounts/validator-account.entity';
import { CustomTypeEntity } from '../custom-types/custom-type.entity';
import { EnrollmentEntity } from '../enrollments/enrollment.entity';
import { MediaEntity } from '../media/media.entity';
import { SandboxPhoneMessageEntity } from '../otp/sandbox-phone-message.entity';
import { TenantFeaturesEntity } from '../tenant-features/tenant-features.entity';
import { ValidationEntity } from '../validations/validation.entity';
import { ValidatorConfigEntity } from '../validator-config/validator-config.entity';
import { ValidatorsSuite1764050000000 } from './migrations/1764050000000-validators-suite';
import { CustomTypesOnRequest1764200000000 } from './migrations/1764200000000-custom-types-on-request';
import { OneTimeCodes1764210000000 } from './migrations/1764210000000-one-time-codes';

/** Entities and migrations of the validations schema, in order. */
export const validationsEntities: EntityClass[] = [
  ValidatorAccountEntity,
  EnrollmentEntity,
  ValidationEntity,
  MediaEntity,
  ValidatorConfigEntity,
  TenantFeaturesEntity,
  SandboxPhoneMessageEntity,
  CustomTypeEntity,
];
export const validationsMigrations = [
  ...PLATFORM_MIGRATIONS,
  ValidatorsSuite1764050000000,
  CustomTypesOnRequest1764200000000,
  OneTimeCodes1764210000000,
];

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(
  serviceDataSourceOptions({
    url: process.env.DATABASE_URL ?? '',
    schema: process.env.DB_SCHEMA ?? 'validations',
    entities: validationsEntities,
    migrations: validationsMigrations,
  }),
);
