import type { CheckCountry, DataSet, Severity } from '@kyc/contracts';

import type { SearchRoute } from '../../collector';

/**
 * The records of the fictitious people, vehicles and companies the sandbox databases know (documented in the
 * README, "Sandbox identities", like a payment API documents its test cards). Everything here is
 * invented; any resemblance to real people or companies is accidental.
 *
 * A record is filed in one dataset and found either by ID (document, plate, tax ID) or by name
 * only. By-name records are filed under `name` (default: the subject's name), so a search for a
 * homonym finds them too, and names filed in another token order only match with soft matching.
 * BR court records carry the state (`region`) of the court that holds them: a region search only
 * sees its own state, a nation-wide search (region ALL) sees them all.
 */
export interface SandboxRecord {
  data_set: DataSet;
  by: SearchRoute;
  severity: Severity;
  kind: string;
  fields: Record<string, string>;
  name?: string;
  region?: string;
  date?: string;
}

export interface SandboxPerson {
  ref: string;
  country: Exclude<CheckCountry, 'ALL'>;
  national_id?: string;
  foreign_id?: string;
  pep?: string;
  ptp?: string;
  document_number?: string;
  first_name: string;
  last_name: string;
  gender: 'male' | 'female';
  date_of_birth: string;
  issue_date?: string;
  status: 'found' | 'dead';
  death_date?: string;
  drivers_license?: string;
  professional_card?: string;
  rfc?: string;
  nss?: string;
  /** Databases that fail (transient error) whenever they are asked about this person. */
  failing?: string[];
  records: SandboxRecord[];
}

export interface SandboxVehicle {
  ref: string;
  country: Exclude<CheckCountry, 'ALL'>;
  license_plate: string;
  vehicle_id?: string;
  owner_national_id?: string;
  manufacturer: string;
  model: string;
  year: number;
  color: string;
  vehicle_type: string;
  service_type: string;
  vehicle_category: string;
  number_of_doors: number;
  capacity: number;
  obligatory_insurance_status: string;
  obligatory_insurance_expiration_date: string;
  records: SandboxRecord[];
}

export interface SandboxCompany {
  ref: string;
  country: Exclude<CheckCountry, 'ALL'>;
  tax_id: string;
  company_name: string;
  status: 'active' | 'inactive';
  records: SandboxRecord[];
}

/** Names that only appear in lists and media (no identity document known to the sandbox). */
export interface SandboxListedName {
  ref: string;
  country: CheckCountry;
  name: string;
  records: SandboxRecord[];
}

export const r = (
  data_set: DataSet,
  by: SearchRoute,
  severity: Severity,
  kind: string,
  fields: Record<string, string>,
  extra: Partial<SandboxRecord> = {},
): SandboxRecord => ({
  data_set,
  by,
  severity,
  kind,
  fields,
  ...extra,
});
