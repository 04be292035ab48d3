// Builds MRZ lines (ICAO 9303 TD1 identity cards and TD3 passports) for test documents, with correct
// check digits unless told to corrupt one.

import { alpha3, normalizeName } from '../../../src/engines/document/countries';
import { mrzCheckDigit } from '../../../src/engines/document/mrz/check-digit';

export interface TestPerson {
  /** ISO 3166 alpha-2 of the issuer (also the nationality). */
  country: string;
  /** The MRZ document number (at most 9 characters). */
  documentNumber: string;
  /** National identification number written in the TD1 optional data (at most 15 characters). */
  nationalId?: string;
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  /** YYYY-MM-DD */
  expirationDate: string;
  sex: 'M' | 'F';
}

/** Which check digit to corrupt (the digit written is the correct one plus 1, modulo 10). */
export type CorruptCheckDigit = 'document_number' | 'birth_date' | 'expiration_date' | 'composite';

function pad(value: string, length: number): string {
  if (value.length > length) throw new Error(`MRZ field too long: ${value} (max ${length})`);
  return value + '<'.repeat(length - value.length);
}

function mrzDate(iso: string): string {
  return iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
}

function mrzName(person: TestPerson, length: number): string {
  const part = (s: string) => normalizeName(s).replace(/ /g, '<');
  const full = `${part(person.lastName)}<<${part(person.firstName)}`;
  return pad(full.slice(0, length), length);
}

function issuer(person: TestPerson): string {
  const code = alpha3(person.country);
  if (!code) throw new Error(`no alpha-3 code for ${person.country}`);
  return code;
}

function check(field: string, which: CorruptCheckDigit, corrupt?: CorruptCheckDigit): string {
  const digit = mrzCheckDigit(field);
  return corrupt === which ? String((Number(digit) + 1) % 10) : digit;
}

/** The three 30-character lines of a TD1 identity card. */
export function td1Lines(person: TestPerson, corrupt?: CorruptCheckDigit): string[] {
  const state = issuer(person);
  const docNumber = pad(person.documentNumber, 9);
  const optional1 = pad(person.nationalId ?? '', 15);
  const line1 = `ID${state}${docNumber}${check(docNumber, 'document_number', corrupt)}${optional1}`;
  const dob = mrzDate(person.dateOfBirth);
  const exp = mrzDate(person.expirationDate);
  const head = `${dob}${check(dob, 'birth_date', corrupt)}${person.sex}${exp}${check(exp, 'expiration_date', corrupt)}${state}${pad('', 11)}`;
  const composite = line1.slice(5, 30) + head.slice(0, 7) + head.slice(8, 15) + head.slice(18, 29);
  const line2 = head + check(composite, 'composite', corrupt);
  return [line1, line2, mrzName(person, 30)];
}

/** The two 44-character lines of a TD3 passport. */
export function td3Lines(person: TestPerson, corrupt?: CorruptCheckDigit): string[] {
  const state = issuer(person);
  const line1 = `P<${state}${mrzName(person, 39)}`;
  const docNumber = pad(person.documentNumber, 9);
  const dob = mrzDate(person.dateOfBirth);
  const exp = mrzDate(person.expirationDate);
  const personal = pad(person.nationalId ?? '', 14);
  const body =
    `${docNumber}${check(docNumber, 'document_number', corrupt)}${state}` +
    `${dob}${check(dob, 'birth_date', corrupt)}${person.sex}${exp}${check(exp, 'expiration_date', corrupt)}` +
    `${personal}${mrzCheckDigit(personal)}`;
  const composite = body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43);
  return [line1, body + check(composite, 'composite', corrupt)];
}
