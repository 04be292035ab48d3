import { CL_CR_PEOPLE } from './identities/people-cl-cr';
import { CO_MX_PEOPLE } from './identities/people-co-mx';
import { PE_BR_PEOPLE } from './identities/people-pe-br';
import type { SandboxPerson } from './identities/sandbox-records';

export { SANDBOX_COMPANIES } from './identities/companies';
export { SANDBOX_LISTED_NAMES } from './identities/listed-names';
export * from './identities/sandbox-records';
export { SANDBOX_VEHICLES } from './identities/vehicles';

/**
 * The fictitious people, vehicles and companies the sandbox databases know, one file each under identities/
 * (documented in docs/services/checks.md, "Sandbox identities", like a payment API documents its test cards).
 * Everything here is invented; any resemblance to real people or companies is accidental.
 *
 * A record is filed in one dataset and found either by ID (document, plate, tax ID) or by name
 * only. By-name records are filed under `name` (default: the subject's name), so a search for a
 * homonym finds them too, and names filed in another token order only match with soft matching.
 * BR court records carry the state (`region`) of the court that holds them: a region search only
 * sees its own state, a nation-wide search (region ALL) sees them all.
 */
export const SANDBOX_PEOPLE: SandboxPerson[] = [...CO_MX_PEOPLE, ...PE_BR_PEOPLE, ...CL_CR_PEOPLE];
