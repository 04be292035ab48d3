import { EntityClass, PLATFORM_MIGRATIONS, serviceDataSourceOptions } from '@kyc/platform';
import { DataSource } from 'typeorm';

import { ContactEntity } from '../contacts/contact.entity';
import { ContactPropertyEntity } from '../contacts/contact-property.entity';
import { ProfileEntity } from '../profiles/profile.entity';
import { ProfileIdentifierEntity } from '../profiles/profile-identifier.entity';
import { ProfileLineEntity } from '../profiles/profile-line.entity';
import { ProfileMergeEntity } from '../profiles/profile-merge.entity';
import { TagHistoryEntity } from '../profiles/tag-history.entity';
import { TransactionEntity } from '../profiles/transaction.entity';
import { SegmentEntity } from '../segments/segment.entity';
import { CreateCustomers1764000000000 } from './migrations/1764000000000-create-customers';
import { ProfileTagsJsonb1764300000000 } from './migrations/1764300000000-profile-tags-jsonb';
import { ContactsEmailIndex1764500000000 } from './migrations/1764500000000-contacts-email-index';

/** Entities and migrations of the customers schema, in order. */
export const customersEntities: EntityClass[] = [
  ContactPropertyEntity,
  ContactEntity,
  ProfileEntity,
  TransactionEntity,
  TagHistoryEntity,
  ProfileLineEntity,
  ProfileMergeEntity,
  SegmentEntity,
  ProfileIdentifierEntity,
];
export const customersMigrations = [
  ...PLATFORM_MIGRATIONS,
  CreateCustomers1764000000000,
  ProfileTagsJsonb1764300000000,
  ContactsEmailIndex1764500000000,
];

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(
  serviceDataSourceOptions({
    url: process.env.DATABASE_URL ?? '',
    schema: process.env.DB_SCHEMA ?? 'customers',
    entities: customersEntities,
    migrations: customersMigrations,
  }),
);
