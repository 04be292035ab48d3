// Parsing and verifying MRZ lines with the `mrz` library (zakodium): fields, check digits, and OCR
// ambiguities (O/0, I/1, B/8...) corrected where a field is only numeric or only alphabetic.

import { parse, type ParseResult } from 'mrz';

import type { ExtractedDocumentData } from '../../engine.ports';

export interface MrzVerification {
  format: string;
  /** All check digits and field formats are right. */
  valid: boolean;
  /** The fields whose check digit failed (document_number, birth_date, expiration_date, personal_number, composite). */
  failedCheckDigits: string[];
  /** Other invalid fields (e.g. an unknown issuing state), by the library's label. */
  invalidFields: Array<{ field: string; error?: string }>;
  extracted: ExtractedDocumentData;
  /** The optional data (TD1 optional1/optional2, TD3 personal number) as read, fillers removed. */
  optionalData: string[];
}

const CHECK_DIGIT_FIELDS: Record<string, string> = {
  documentNumberCheckDigit: 'document_number',
  birthDateCheckDigit: 'birth_date',
  expirationDateCheckDigit: 'expiration_date',
  personalNumberCheckDigit: 'personal_number',
  compositeCheckDigit: 'composite',
};

/** YYMMDD → YYYY-MM-DD; birth dates in the future are taken from the previous century, expiry dates never. */
export function mrzDateToIso(
  yymmdd: string | null | undefined,
  kind: 'birth' | 'expiry',
  now: Date,
): string | undefined {
  if (!yymmdd || !/^\d{6}$/.test(yymmdd)) return undefined;
  const yy = Number(yymmdd.slice(0, 2));
  const currentYY = now.getUTCFullYear() % 100;
  const century = Math.floor(now.getUTCFullYear() / 100) * 100;
  let year = century + yy;
  if (kind === 'birth' && yy > currentYY) year -= 100;
  if (kind === 'expiry' && yy < currentYY - 50) year += 100;
  return `${year}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
}

function clean(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const v = value.replace(/</g, ' ').trim();
  return v.length ? v : undefined;
}

export function verifyMrz(lines: string[], now: Date): MrzVerification | undefined {
  let result: ParseResult;
  try {
    result = parse(lines, { autocorrect: true });
  } catch {
    return undefined;
  }
  const failedCheckDigits: string[] = [];
  const invalidFields: Array<{ field: string; error?: string }> = [];
  for (const d of result.details) {
    if (d.valid || !d.field) continue;
    const checkField = CHECK_DIGIT_FIELDS[d.field];
    if (checkField) failedCheckDigits.push(checkField);
    else invalidFields.push({ field: d.field, error: d.error });
  }
  const f = result.fields;
  // The lines as read, with the library's corrections of OCR ambiguities applied.
  const corrected = lines.map((line) => [...line]);
  for (const d of result.details)
    for (const c of d.autocorrect)
      if (corrected[c.line]?.[c.column] === c.original) corrected[c.line][c.column] = c.corrected;
  const optionalData = [f.optional1, f.optional2, f.personalNumber]
    .map((v) => (v ? v.replace(/<+$/g, '').replace(/^<+/, '') : ''))
    .filter((v) => v.length > 0);
  return {
    format: result.format,
    valid: result.valid,
    failedCheckDigits,
    invalidFields,
    optionalData,
    extracted: {
      documentNumber: f.documentNumber ?? undefined,
      firstName: clean(f.firstName),
      lastName: clean(f.lastName),
      dateOfBirth: mrzDateToIso(f.birthDate, 'birth', now),
      expirationDate: mrzDateToIso(f.expirationDate, 'expiry', now),
      nationality: f.nationality ?? undefined,
      sex: f.sex ?? undefined,
      issuingCountry: f.issuingState ?? undefined,
      mrz: corrected.map((chars) => chars.join('')),
    },
  };
}
