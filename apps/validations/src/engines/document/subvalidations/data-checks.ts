// The checks on the document's data: the MRZ itself, the national ID number's algorithm, the expiry
// date, consistency with the account's data, and the government registry.

import type { DocumentEngineInput, GovernmentRegistry, SubvalidationOutcome } from '../../engine.ports';
import { normalizeName } from '../countries';
import { checkNationalId } from '../national-id/national-id';
import { type DocumentContext, type DocumentSubvalidation, failure, skipped, success } from './subvalidation';

/** The MRZ was found and all its check digits are right. Always on. */
export class MrzSubvalidation implements DocumentSubvalidation {
  readonly name = 'mrz';
  enabled = () => true;

  run(context: DocumentContext): Promise<SubvalidationOutcome> {
    const mrz = context.mrz;
    if (!mrz) return Promise.resolve(failure(this.name, 'mrz_not_found'));
    if (mrz.failedCheckDigits.length > 0)
      return Promise.resolve(
        failure(this.name, 'invalid_mrz_check_digit', {
          format: mrz.format,
          side: context.mrzSide,
          failed_check_digits: mrz.failedCheckDigits,
        }),
      );
    return Promise.resolve(
      success(this.name, {
        format: mrz.format,
        side: context.mrzSide,
        ...(mrz.invalidFields.length ? { warnings: mrz.invalidFields } : {}),
      }),
    );
  }
}

/** The national ID number (typed, else read from the MRZ) passes its country's algorithm. Always on. */
export class DocumentNumberSubvalidation implements DocumentSubvalidation {
  readonly name = 'document_number';
  enabled = () => true;

  run(context: DocumentContext): Promise<SubvalidationOutcome> {
    const { input, nationalNumber } = context;
    if (!isNationalDocument(input)) return Promise.resolve(skipped(this.name, 'not_a_national_id'));
    if (!nationalNumber) return Promise.resolve(skipped(this.name, 'number_not_available'));
    const check = checkNationalId(input.country, nationalNumber);
    if (!check) return Promise.resolve(skipped(this.name, 'no_algorithm_for_country'));
    const details = { scheme: check.scheme, number: check.normalized };
    return Promise.resolve(
      check.valid
        ? success(this.name, details)
        : failure(this.name, 'invalid_document_number', { ...details, problem: check.reason }),
    );
  }
}

/** The document has not expired (MRZ expiry date, else the typed one). Always on. */
export class ExpirationSubvalidation implements DocumentSubvalidation {
  readonly name = 'document_expiration';
  enabled = () => true;

  run(context: DocumentContext): Promise<SubvalidationOutcome> {
    const expiry = context.extracted.expirationDate ?? context.input.expected.expirationDate;
    if (!expiry) return Promise.resolve(skipped(this.name, 'expiration_date_not_available'));
    const today = context.now.toISOString().slice(0, 10);
    return Promise.resolve(
      expiry < today
        ? failure(this.name, 'document_expired', { expiration_date: expiry })
        : success(this.name, { expiration_date: expiry }),
    );
  }
}

/**
 * The document's data (MRZ) equals the account's: names compared without accents, case or punctuation
 * (an MRZ name cut at the field's end matches as a prefix), the document number by its characters, dates
 * exactly. Only the fields present on both sides are compared.
 */
export class DataConsistencySubvalidation implements DocumentSubvalidation {
  readonly name = 'data_consistency';
  enabled = (input: DocumentEngineInput) => input.checks.dataConsistency;

  run(context: DocumentContext): Promise<SubvalidationOutcome> {
    if (!context.mrz) return Promise.resolve(skipped(this.name, 'mrz_not_found'));
    const expected = context.input.expected;
    const doc = context.extracted;
    const mismatches: Array<{ field: string; expected: string; document: string }> = [];
    const compared: string[] = [];
    const compare = (
      field: string,
      want: string | undefined,
      got: string | undefined,
      same: (a: string, b: string) => boolean,
    ) => {
      if (!want || !got) return;
      compared.push(field);
      if (!same(want, got)) mismatches.push({ field, expected: want, document: got });
    };
    compare('first_name', expected.firstName, doc.firstName, sameName);
    compare('last_name', expected.lastName, doc.lastName, sameName);
    compare('date_of_birth', expected.dateOfBirth, doc.dateOfBirth, (a, b) => a === b);
    compare('expiration_date', expected.expirationDate, doc.expirationDate, (a, b) => a === b);
    if (expected.documentNumber && (doc.documentNumber || context.mrz.optionalData.length)) {
      compared.push('document_number');
      const want = alnum(expected.documentNumber);
      const candidates = [doc.documentNumber ?? '', ...context.mrz.optionalData].map(alnum).filter(Boolean);
      // The MRZ's 9-character number field may hold the start of a longer number.
      if (!candidates.some((c) => c === want || (c.length === 9 && want.startsWith(c))))
        mismatches.push({
          field: 'document_number',
          expected: expected.documentNumber,
          document: doc.documentNumber ?? '',
        });
    }
    if (compared.length === 0) return Promise.resolve(skipped(this.name, 'no_expected_data'));
    return Promise.resolve(
      mismatches.length
        ? failure(this.name, 'data_mismatch', { compared, mismatches })
        : success(this.name, { compared }),
    );
  }
}

/** The national number is on file in the government registry, under the same name and date of birth (national documents only). */
export class GovernmentDatabaseSubvalidation implements DocumentSubvalidation {
  readonly name = 'government_database';
  enabled = (input: DocumentEngineInput) => input.checks.governmentDatabase;

  constructor(private readonly registry: GovernmentRegistry) {}

  async run(context: DocumentContext): Promise<SubvalidationOutcome> {
    if (!isNationalDocument(context.input)) return skipped(this.name, 'not_a_national_id');
    const number = context.nationalNumber ?? context.extracted.documentNumber;
    if (!number) return skipped(this.name, 'number_not_available');
    let answer: Awaited<ReturnType<GovernmentRegistry['lookup']>>;
    try {
      answer = await this.registry.lookup({
        country: context.input.country,
        documentType: context.input.documentType,
        documentNumber: number,
      });
    } catch (err) {
      return skipped(this.name, 'government_database_unavailable', { error: (err as Error).message });
    }
    if (!answer.found) return failure(this.name, 'government_database_not_found', { number });
    const person = { ...context.input.expected, ...context.extracted };
    const mismatches: string[] = [];
    if (answer.firstName && person.firstName && !sameName(answer.firstName, person.firstName))
      mismatches.push('first_name');
    if (answer.lastName && person.lastName && !sameName(answer.lastName, person.lastName)) mismatches.push('last_name');
    if (answer.dateOfBirth && person.dateOfBirth && answer.dateOfBirth !== person.dateOfBirth)
      mismatches.push('date_of_birth');
    return mismatches.length
      ? failure(this.name, 'government_database_mismatch', { number, mismatches })
      : success(this.name, { number });
  }
}

export function isNationalDocument(input: DocumentEngineInput): boolean {
  return ['national-id', 'identity-card', 'rut', 'foreign-id'].includes(input.documentType) && input.country !== 'ALL';
}

/** Equal without accents/case/punctuation, or one the other's first words (an MRZ name field cut short). */
export function sameName(a: string, b: string): boolean {
  const x = normalizeName(a);
  const y = normalizeName(b);
  if (!x || !y) return false;
  if (x === y) return true;
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  return short.length >= 3 && long.startsWith(short) && long[short.length] === ' ';
}

function alnum(v: string): string {
  return v.toUpperCase().replace(/[^A-Z0-9]/g, '');
}
