import { INTERNATIONAL_CO_MX_DATABASES } from './databases/international-co-mx';
import { PE_BR_CL_CR_DATABASES } from './databases/pe-br-cl-cr';
import type { SandboxDatabaseSpec } from './databases/sandbox-database-spec';

export { brazilRegionLatencyMs, type SandboxDatabaseSpec } from './databases/sandbox-database-spec';

/** Every sandbox database, one declarative spec each (files under databases/, by country). */
export const SANDBOX_DATABASES: SandboxDatabaseSpec[] = [...INTERNATIONAL_CO_MX_DATABASES, ...PE_BR_CL_CR_DATABASES];
