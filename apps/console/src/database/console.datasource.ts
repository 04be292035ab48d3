import { EntityClass, PLATFORM_MIGRATIONS } from '@kyc/platform';

import { SessionEntity } from '../sessions/session.entity';
import { CreateConsole1764300000000 } from './migrations/1764300000000-create-console';

/** Entities and migrations of the console schema, in order: sessions and sign-in codes only. */
export const consoleEntities: EntityClass[] = [SessionEntity];
export const consoleMigrations = [...PLATFORM_MIGRATIONS, CreateConsole1764300000000];
