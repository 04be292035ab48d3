import { fullName } from '../../shared/names';
import type { CollectorAnswer, FoundRecord, IdentityFacts } from '../collector';
import { hashUnit, normalizeId, SearchInput, unknownIdentityFound } from './sandbox-chance';
import type { SandboxPerson } from './sandbox-identities';
import { SANDBOX_MARK } from './sandbox-records';

/** The answer of an identity registry (and document validation) for a person, known or not. */
export function identityAnswer(
  input: SearchInput,
  person: SandboxPerson | undefined,
  documentValue: string,
): CollectorAnswer {
  const { spec, inputs } = input;
  const records: FoundRecord[] = [];
  const wrong: string[] = [];
  let identity: IdentityFacts;
  if (person) {
    identity = {
      status: person.status,
      first_name: person.first_name,
      last_name: person.last_name,
      gender: person.gender,
      date_of_birth: person.date_of_birth,
      ...(person.death_date ? { death_date: person.death_date } : {}),
      ...(person.drivers_license ? { drivers_license: person.drivers_license } : {}),
      ...(person.rfc ? { rfc: person.rfc } : {}),
      ...(person.nss ? { nss: person.nss } : {}),
    };
  } else {
    const found = unknownIdentityFound(hashUnit(spec.country, normalizeId(documentValue), 'identity'));
    identity = found
      ? {
          status: 'found',
          first_name: inputs.first_name ?? 'SANDBOX',
          last_name: inputs.last_name ?? `PERSON ${normalizeId(documentValue)?.slice(-4)}`,
        }
      : { status: 'not_found' };
  }
  const name = { first: identity.first_name, last: identity.last_name };
  const ref = person?.ref ?? `id:${spec.country}:${normalizeId(documentValue)}`;
  if (spec.dataSets.includes('personal_identity')) {
    const base = { data_set: 'personal_identity' as const, found_by: 'id' as const, subject_ref: ref };
    if (identity.status === 'not_found')
      records.push({
        ...base,
        severity: 'high',
        kind: 'identity_not_found',
        fields: [{ key: 'document', value: documentValue }, SANDBOX_MARK],
      });
    else
      records.push({
        ...base,
        severity: identity.status === 'dead' ? 'very_high' : 'none',
        kind: identity.status === 'dead' ? 'identity_deceased' : 'identity_record',
        fields: [
          { key: 'name', value: fullName(identity.first_name, identity.last_name) },
          { key: 'document', value: documentValue },
          ...(identity.date_of_birth ? [{ key: 'date_of_birth', value: identity.date_of_birth }] : []),
          ...(identity.death_date ? [{ key: 'death_date', value: identity.death_date }] : []),
          { key: 'status', value: identity.status === 'dead' ? 'deceased' : 'valid', valueKey: true },
          SANDBOX_MARK,
        ],
        found_first_name: name.first ?? '',
        found_last_name: name.last ?? '',
      });
  }
  if (spec.validatesDocuments && person && (inputs.issue_date || inputs.date_of_birth)) {
    if (inputs.issue_date && person.issue_date && inputs.issue_date !== person.issue_date)
      wrong.push('document_expedition_date');
    if (inputs.date_of_birth && inputs.date_of_birth !== person.date_of_birth) wrong.push('date_of_birth');
    records.push({
      data_set: 'personal_identity',
      found_by: 'id',
      severity: wrong.length ? 'medium' : 'none',
      kind: wrong.length ? 'document_validation_mismatch' : 'document_validation_match',
      fields: [
        ...(wrong.length
          ? wrong.map((w) => ({ key: 'mismatch', value: w }))
          : [{ key: 'document', value: documentValue }]),
        SANDBOX_MARK,
      ],
      subject_ref: ref,
    });
  }
  return {
    kind: 'answer',
    records,
    ...(spec.dataSets.includes('personal_identity') ? { identity } : {}),
    ...(wrong.length ? { wrong_inputs: wrong } : {}),
  };
}
