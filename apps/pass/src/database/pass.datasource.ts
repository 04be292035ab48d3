import { EntityClass, PLATFORM_MIGRATIONS, serviceDataSourceOptions } from '@kyc/platform';
import { DataSource } from 'typeorm';

import { ApplicationEntity } from '../applications/application.entity';
import { ApprovalAttachmentEntity } from '../approvals/approval-attachment.entity';
import { ApprovalOutcomeEntity } from '../approvals/approval-outcome.entity';
import { AccountValidationEntity } from '../claims/account-validation.entity';
import { IdentityProcessEntity } from '../claims/identity-process.entity';
import { SigningKeyEntity } from '../keys/signing-key.entity';
import { PassUserEntity } from '../users/pass-user.entity';
import { ExternalValidationEntity } from '../validations/external-validation.entity';
import { CreatePass1764060000000 } from './migrations/1764060000000-create-pass';
import { Approvals1764063600000 } from './migrations/1764063600000-approvals';
import { ExternalValidations1764067200000 } from './migrations/1764067200000-external-validations';
import { ClaimSources1764070800000 } from './migrations/1764070800000-claim-sources';
import { OneTimeCodes1764081000000 } from './migrations/1764081000000-one-time-codes';
import { OidcSurface1764081600000 } from './migrations/1764081600000-oidc-surface';
import { ClaimProvenance1764480000000 } from './migrations/1764480000000-claim-provenance';

/** Entities and migrations of the pass schema, in order. */
export const passEntities: EntityClass[] = [
  ApplicationEntity,
  PassUserEntity,
  SigningKeyEntity,
  ApprovalAttachmentEntity,
  ApprovalOutcomeEntity,
  ExternalValidationEntity,
  AccountValidationEntity,
  IdentityProcessEntity,
];
export const passMigrations = [
  ...PLATFORM_MIGRATIONS,
  CreatePass1764060000000,
  Approvals1764063600000,
  ExternalValidations1764067200000,
  ClaimSources1764070800000,
  OneTimeCodes1764081000000,
  OidcSurface1764081600000,
  ClaimProvenance1764480000000,
];

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(
  serviceDataSourceOptions({
    url: process.env.DATABASE_URL ?? '',
    schema: process.env.DB_SCHEMA ?? 'pass',
    entities: passEntities,
    migrations: passMigrations,
  }),
);
