import {
  BRAZIL_REGIONS,
  type BuiltInCheckType,
  type CheckCountry,
  type DataSet,
  type DetailLanguage,
} from '@kyc/contracts';

import type { DetailGroup, SearchSpec } from '../../collector';

/** Declarative description of one sandbox database (see SandboxCollector for its behaviour). */
export interface SandboxDatabaseSpec {
  id: string;
  name: string;
  country: CheckCountry;
  dataSets: DataSet[];
  /** Also compares the document's issue date and the date of birth given (records under personal_identity). */
  validatesDocuments?: boolean;
  types: BuiltInCheckType[];
  searches: SearchSpec[];
  /** Nominal answer time (ms) before CHECKS_SANDBOX_LATENCY_SCALE; may depend on the check's region. */
  latencyMs: number | ((region: string | null) => number);
  expectedLatencyMs: number;
  group: DetailGroup;
  language: DetailLanguage;
  needsCredentials?: boolean;
  /** Answers through POST /v1/webhooks/sandbox instead of being polled. */
  webhook?: boolean;
  /** Only for checks whose effective region satisfies this (Brazil's courts). */
  regions?: 'state' | 'nation-wide';
  /** Issues a certificate attachment with every answer. */
  certificate?: boolean;
}

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const personName: SearchSpec = { by: 'name', inputs: ['first_name', 'last_name'], types: ['person'] };
export const companyName: SearchSpec = { by: 'name', inputs: ['company_name'], types: ['company'] };

/** A state court of Brazil answers in 2 to 20 minutes, fixed per state. */
export const brazilRegionLatencyMs = (region: string | null): number => {
  const i = Math.max(0, (BRAZIL_REGIONS as readonly string[]).indexOf(region ?? 'DF'));
  return (2 + ((i * 7) % 19)) * MIN;
};
