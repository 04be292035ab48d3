import { EntityClass, PLATFORM_MIGRATIONS, serviceDataSourceOptions } from '@kyc/platform';
import { DataSource } from 'typeorm';

import { ApiKeyEntity } from '../api-keys/api-key.entity';
import { FlowEntity } from '../flows/flow.entity';
import { ProcessFileEntity } from '../process-files/process-file.entity';
import { ProcessLogEntity } from '../process-logs/process-log.entity';
import { ProcessEntity } from '../processes/process.entity';
import { SandboxPhoneMessageEntity } from '../web-integration/channels/sandbox-phone-message.entity';
import { LinkDeliveryEntity } from '../web-integration/link-delivery.entity';
import { CreateApiKeys1763769603000 } from './migrations/1763769603000-create-api-keys';
import { CreateFlowsProcesses1764050000000 } from './migrations/1764050000000-create-flows-processes';
import { CreateProcessLogs1764060000000 } from './migrations/1764060000000-create-process-logs';
import { CreateProcessFiles1764100000000 } from './migrations/1764100000000-create-process-files';
import { CreateLinkDeliveries1764100000001 } from './migrations/1764100000001-create-link-deliveries';

export const identityEntities: EntityClass[] = [
  ApiKeyEntity,
  FlowEntity,
  ProcessEntity,
  ProcessLogEntity,
  ProcessFileEntity,
  LinkDeliveryEntity,
  SandboxPhoneMessageEntity,
];
export const identityMigrations = [
  ...PLATFORM_MIGRATIONS,
  CreateApiKeys1763769603000,
  CreateFlowsProcesses1764050000000,
  CreateProcessLogs1764060000000,
  CreateProcessFiles1764100000000,
  CreateLinkDeliveries1764100000001,
];

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(
  serviceDataSourceOptions({
    url: process.env.DATABASE_URL ?? '',
    schema: process.env.DB_SCHEMA ?? 'identity',
    entities: identityEntities,
    migrations: identityMigrations,
  }),
);
