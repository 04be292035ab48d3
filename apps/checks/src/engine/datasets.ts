import type { BuiltInCheckType, CheckCountry, DataSet } from '@kyc/contracts';

import type { Collector } from '../collectors/collector';

/**
 * Base weights of the built-in types. The default weights of a type in a country are these,
 * restricted to the datasets the country's databases (and the international ones) feed for that
 * type, and scaled to sum 1.
 */
export const BASE_WEIGHTS: Record<BuiltInCheckType, Partial<Record<DataSet, number>>> = {
  person: {
    personal_identity: 0.25,
    criminal_record: 0.2,
    legal_background: 0.15,
    international_background: 0.15,
    alert_in_media: 0.05,
    taxes_and_finances: 0.05,
    traffic_fines: 0.05,
    affiliations_and_insurances: 0.04,
    driving_licenses: 0.03,
    professional_background: 0.03,
  },
  vehicle: {
    vehicle_information: 0.3,
    traffic_fines: 0.25,
    vehicle_permits: 0.2,
    driving_licenses: 0.1,
    criminal_record: 0.1,
    personal_identity: 0.05,
  },
  company: {
    business_background: 0.3,
    legal_background: 0.2,
    taxes_and_finances: 0.2,
    international_background: 0.15,
    alert_in_media: 0.1,
    criminal_record: 0.05,
  },
};

const round = (n: number) => Math.round(n * 10_000) / 10_000;

/** Default weights of a built-in type in a country, given the databases that can serve it. */
export function defaultWeights(
  type: BuiltInCheckType,
  candidates: readonly Collector[],
): Partial<Record<DataSet, number>> {
  const fed = new Set(candidates.flatMap((c) => c.dataSets));
  const base = Object.entries(BASE_WEIGHTS[type]).filter(([d]) => fed.has(d as DataSet)) as [DataSet, number][];
  const total = base.reduce((s, [, w]) => s + w, 0);
  if (!total) return {};
  return Object.fromEntries(base.map(([d, w]) => [d, round(w / total)]));
}

/**
 * max_duration defaults (settings): 48 h when retries is on; otherwise 3 h for CO, MX, PE and BR,
 * 48 h for CL and international (ALL) searches, 72 h for CR.
 */
export function defaultMaxDurationMinutes(country: CheckCountry, retries: boolean): number {
  if (retries) return 48 * 60;
  switch (country) {
    case 'CO':
    case 'MX':
    case 'PE':
    case 'BR':
      return 3 * 60;
    case 'CR':
      return 72 * 60;
    default:
      return 48 * 60;
  }
}
