import type { DataSet, Severity } from '@kyc/contracts';

import { fullName, namesMatch, normalizeName } from '../../shared/names';
import type { CollectorAnswer, FoundRecord, SearchRoute, VehicleFacts } from '../collector';
import {
  hashUnit,
  normalizeId,
  SearchInput,
  UNKNOWN_NAME_FINDING_RATE,
  unknownSubjectSeverity,
} from './sandbox-chance';
import type { SandboxDatabaseSpec } from './sandbox-databases';
import {
  SANDBOX_COMPANIES,
  SANDBOX_LISTED_NAMES,
  SANDBOX_PEOPLE,
  SANDBOX_VEHICLES,
  SandboxCompany,
  SandboxPerson,
  SandboxRecord,
  SandboxVehicle,
} from './sandbox-identities';
import { identityAnswer } from './sandbox-identity-answer';
import { completeSandboxRecord, SANDBOX_MARK, sandboxFinding } from './sandbox-records';

type Subject =
  | { kind: 'person'; value: SandboxPerson }
  | { kind: 'vehicle'; value: SandboxVehicle }
  | { kind: 'company'; value: SandboxCompany };

function personBy(key: string, value: string, country: string): SandboxPerson | undefined {
  const v = normalizeId(value);
  return SANDBOX_PEOPLE.find((p) => {
    if (p.country !== country) return false;
    switch (key) {
      case 'national_id':
      case 'owner_document_id':
        return normalizeId(p.national_id) === v;
      case 'foreign_id':
        return normalizeId(p.foreign_id) === v;
      case 'pep':
        return normalizeId(p.pep) === v;
      case 'ptp':
        return normalizeId(p.ptp) === v;
      case 'tax_id':
        return normalizeId(p.rfc) === v;
      case 'professional_card':
        return normalizeId(p.professional_card) === v;
      case 'driver_license':
        return normalizeId(p.drivers_license) === v;
      default:
        return false;
    }
  });
}

/** The subject an ID search is about (the first input of the search is its key). */
export function findSubject(input: SearchInput): Subject | undefined {
  const { spec, inputs, searchInputs } = input;
  const key = searchInputs[0];
  const value = inputs[key];
  if (!value) return undefined;
  if (key === 'license_plate' || key === 'vehicle_id') {
    const v = normalizeId(value);
    const vehicle = SANDBOX_VEHICLES.find(
      (x) => x.country === spec.country && normalizeId(key === 'license_plate' ? x.license_plate : x.vehicle_id) === v,
    );
    return vehicle && { kind: 'vehicle', value: vehicle };
  }
  if (key === 'tax_id') {
    const company = SANDBOX_COMPANIES.find(
      (c) => c.country === spec.country && normalizeId(c.tax_id) === normalizeId(value),
    );
    if (company) return { kind: 'company', value: company };
  }
  if (key === 'first_name') {
    // Mexico's alternative registry method: name, birthdate and gender (state_id identifies the record).
    const person = SANDBOX_PEOPLE.find(
      (p) =>
        p.country === spec.country &&
        namesMatch(fullName(inputs.first_name, inputs.last_name), fullName(p.first_name, p.last_name), 'exact') &&
        p.date_of_birth === inputs.date_of_birth,
    );
    return person && { kind: 'person', value: person };
  }
  const person = personBy(key, value, spec.country);
  return person && { kind: 'person', value: person };
}

const recordFields = (rec: SandboxRecord) =>
  Object.entries(rec.fields).map(([key, value]) => ({ key, value, ...(key === 'status' ? { valueKey: true } : {}) }));

function toFound(
  rec: SandboxRecord,
  subjectRef: string,
  found: { first?: string; last?: string; company?: string; vehicle?: SandboxVehicle },
): FoundRecord {
  return {
    data_set: rec.data_set,
    found_by: rec.by,
    severity: rec.severity,
    kind: rec.kind,
    fields: completeSandboxRecord(
      rec.data_set,
      rec.severity,
      [...recordFields(rec), ...(rec.date ? [{ key: 'date', value: rec.date }] : [])],
      `${subjectRef}|${rec.kind}`,
      {
        name: found.company ?? (fullName(found.first ?? '', found.last ?? '').trim() || undefined),
        plate: rec.fields.plate ?? found.vehicle?.license_plate,
        ...(found.vehicle
          ? { vehicle: { make: found.vehicle.manufacturer, model: found.vehicle.model, year: found.vehicle.year } }
          : {}),
      },
    ),
    ...(found.first !== undefined ? { found_first_name: found.first, found_last_name: found.last ?? '' } : {}),
    ...(found.company !== undefined ? { found_company_name: found.company } : {}),
    subject_ref: subjectRef,
    ...(rec.date ? { issued_at: rec.date } : {}),
  };
}

/** Records a court of Brazil holds: a state court only its own state's, the nation-wide search all. */
const visibleInRegion = (rec: SandboxRecord, spec: SandboxDatabaseSpec, region: string | null) =>
  !rec.region || spec.regions !== 'state' || rec.region === region;

function generated(
  dataSet: DataSet,
  by: SearchRoute,
  severity: Severity,
  extra: Partial<FoundRecord> = {},
  plate?: string,
): FoundRecord {
  const name =
    extra.found_company_name || fullName(extra.found_first_name ?? '', extra.found_last_name ?? '').trim() || undefined;
  const rec = sandboxFinding(dataSet, severity, extra.subject_ref ?? name ?? '', { name, plate });
  return {
    data_set: dataSet,
    found_by: by,
    severity,
    kind: rec.kind,
    fields: rec.fields,
    issued_at: rec.date,
    ...extra,
  };
}

/** A name search: every record filed by name under a similar name (the source's own fuzzy search). */
function searchByName(input: SearchInput): CollectorAnswer {
  const { spec, inputs } = input;
  const company = input.searchInputs[0] === 'company_name';
  const searched = company ? inputs.company_name : fullName(inputs.first_name, inputs.last_name);
  const international = spec.country === 'ALL';
  const inScope = (country: string) => international || country === spec.country;
  const wanted = (rec: SandboxRecord) => rec.by === 'name' && spec.dataSets.includes(rec.data_set);
  const records: FoundRecord[] = [];
  if (!company) {
    for (const p of SANDBOX_PEOPLE.filter((x) => inScope(x.country))) {
      for (const rec of p.records.filter(wanted)) {
        const filed = rec.name ?? fullName(p.first_name, p.last_name);
        if (!namesMatch(searched, filed, 'soft')) continue;
        records.push(
          toFound(rec, p.ref, rec.name ? { first: rec.name, last: '' } : { first: p.first_name, last: p.last_name }),
        );
      }
    }
  }
  for (const c of SANDBOX_COMPANIES.filter((x) => inScope(x.country) && company)) {
    for (const rec of c.records.filter(wanted))
      if (namesMatch(searched, rec.name ?? c.company_name, 'soft'))
        records.push(toFound(rec, c.ref, { company: rec.name ?? c.company_name }));
  }
  for (const l of SANDBOX_LISTED_NAMES.filter((x) => inScope(x.country))) {
    for (const rec of l.records.filter(wanted)) {
      if (!namesMatch(searched, rec.name ?? l.name, 'soft')) continue;
      records.push(toFound(rec, l.ref, company ? { company: l.name } : { first: l.name, last: '' }));
    }
  }
  const known =
    SANDBOX_PEOPLE.some((p) => namesMatch(searched, fullName(p.first_name, p.last_name), 'soft')) ||
    SANDBOX_COMPANIES.some((c) => namesMatch(searched, c.company_name, 'soft')) ||
    SANDBOX_LISTED_NAMES.some((l) => namesMatch(searched, l.name, 'soft'));
  if (!known) {
    for (const dataSet of spec.dataSets) {
      const u = hashUnit(spec.id, normalizeName(searched), dataSet);
      if (u < UNKNOWN_NAME_FINDING_RATE) {
        const found = company
          ? { found_company_name: searched }
          : { found_first_name: inputs.first_name ?? '', found_last_name: inputs.last_name ?? '' };
        records.push(generated(dataSet, 'name', 'low', { ...found, subject_ref: `name:${normalizeName(searched)}` }));
      }
    }
  }
  return { kind: 'answer', records };
}

function vehicleFacts(v: SandboxVehicle): VehicleFacts {
  const { ref: _r, country: _c, owner_national_id: _o, records: _rec, ...facts } = v;
  return { status: 'found', ...facts };
}

/** The answer of a sandbox database to one query (latency and failures are the collector's business). */
export function sandboxAnswer(input: SearchInput): CollectorAnswer {
  if (input.search === 'name') return searchByName(input);
  const { spec, inputs, searchInputs } = input;
  const key = searchInputs[0];
  const value = inputs[key] ?? '';
  const subject = findSubject(input);
  const wanted = (rec: SandboxRecord) =>
    rec.by === 'id' && spec.dataSets.includes(rec.data_set) && visibleInRegion(rec, spec, input.region);

  if (key === 'license_plate' || key === 'vehicle_id') {
    const vehicle = subject?.kind === 'vehicle' ? subject.value : undefined;
    const ref = vehicle?.ref ?? `vehicle:${spec.country}:${normalizeId(value)}`;
    const records = vehicle ? vehicle.records.filter(wanted).map((rec) => toFound(rec, ref, { vehicle })) : [];
    if (!vehicle)
      for (const ds of spec.dataSets) {
        const sev = unknownSubjectSeverity(hashUnit(spec.country, normalizeId(value), ds));
        if (sev !== 'none') records.push(generated(ds, 'id', sev, { subject_ref: ref }, value));
      }
    let facts: VehicleFacts | undefined;
    if (spec.dataSets.includes('vehicle_information')) {
      const year = 2010 + Math.floor(hashUnit('year', normalizeId(value)) * 14);
      facts = vehicle
        ? vehicleFacts(vehicle)
        : { status: 'found', [key]: value, manufacturer: 'Sandbox Motors', model: 'Generic', year, color: 'gris' };
      records.push({
        data_set: 'vehicle_information',
        found_by: 'id',
        severity: 'none',
        kind: 'vehicle_registration',
        subject_ref: ref,
        fields: [
          { key: 'plate', value: facts.license_plate ?? value },
          { key: 'vehicle', value: `${facts.manufacturer} ${facts.model} ${facts.year}` },
          { key: 'make', value: facts.manufacturer ?? '' },
          { key: 'model', value: facts.model ?? '' },
          { key: 'year', value: String(facts.year ?? '') },
          {
            key: 'permits',
            value: facts.obligatory_insurance_status
              ? `SOAT ${facts.obligatory_insurance_status} (${facts.obligatory_insurance_expiration_date ?? '-'})`
              : 'SOAT -',
          },
          SANDBOX_MARK,
        ],
      });
    }
    return { kind: 'answer', records, ...(facts ? { vehicle: facts } : {}) };
  }

  if (subject?.kind === 'company' || (key === 'tax_id' && !(subject?.kind === 'person'))) {
    const company = subject?.kind === 'company' ? subject.value : undefined;
    const ref = company?.ref ?? `company:${spec.country}:${normalizeId(value)}`;
    const records = company
      ? company.records.filter(wanted).map((rec) => toFound(rec, ref, { company: company.company_name }))
      : [];
    if (!company)
      for (const ds of spec.dataSets) {
        const sev = unknownSubjectSeverity(hashUnit(spec.country, normalizeId(value), ds));
        if (sev !== 'none')
          records.push(generated(ds, 'id', sev, { subject_ref: ref, found_company_name: inputs.company_name ?? '' }));
      }
    const status = company?.status ?? 'active';
    if (spec.dataSets.includes('business_background') && !records.some((rec) => rec.data_set === 'business_background'))
      records.push({
        data_set: 'business_background',
        found_by: 'id',
        severity: status === 'active' ? 'none' : 'medium',
        kind: 'business_registration',
        subject_ref: ref,
        found_company_name: company?.company_name ?? inputs.company_name ?? '',
        fields: [
          { key: 'name', value: company?.company_name ?? inputs.company_name ?? '' },
          { key: 'document', value },
          { key: 'status', value: status, valueKey: true },
          SANDBOX_MARK,
        ],
      });
    return {
      kind: 'answer',
      records,
      company: {
        status,
        ...(company
          ? { company_name: company.company_name }
          : inputs.company_name
            ? { company_name: inputs.company_name }
            : {}),
      },
    };
  }

  // A person (or a vehicle's owner) by a document.
  const person = subject?.kind === 'person' ? subject.value : undefined;
  const answer = spec.dataSets.includes('personal_identity')
    ? identityAnswer(input, person, value)
    : { kind: 'answer' as const, records: [] as FoundRecord[] };
  const ref = person?.ref ?? `id:${spec.country}:${normalizeId(value)}`;
  const others: DataSet[] = spec.dataSets.filter((d) => d !== 'personal_identity');
  if (person)
    answer.records.push(
      ...person.records
        .filter((rec) => wanted(rec) && others.includes(rec.data_set))
        .map((rec) => toFound(rec, ref, { first: person.first_name, last: person.last_name })),
    );
  else
    for (const ds of others) {
      const sev = unknownSubjectSeverity(hashUnit(spec.country, normalizeId(value), ds));
      if (sev !== 'none') answer.records.push(generated(ds, 'id', sev, { subject_ref: ref }));
    }
  return answer;
}

/** Databases that always fail for a known subject (e.g. sandbox-co-police for 1000000099). */
export function subjectFails(input: SearchInput): boolean {
  if (input.search !== 'id') return false;
  const subject = findSubject(input);
  return subject?.kind === 'person' && !!subject.value.failing?.includes(input.spec.id);
}
