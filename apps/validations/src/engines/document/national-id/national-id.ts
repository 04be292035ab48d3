// National identification numbers of the validators' countries and their published check algorithms.
// Each validator takes the number as typed or read (separators allowed) and says whether it is well formed
// and its check digit right.

import { validateCedulaCo } from './cedula-co';
import { validateCpf } from './cpf';
import { validateCurp } from './curp';
import { validateDniPe } from './dni-pe';
import { validateRut } from './rut';

export interface NationalIdCheck {
  valid: boolean;
  /** The number without separators, upper case. */
  normalized: string;
  /** Why it is invalid: format or check_digit. */
  reason?: 'format' | 'check_digit';
}

export type NationalIdValidator = (value: string) => NationalIdCheck;

/** The national identification number of each country with a published algorithm, by ISO alpha-2. */
export const NATIONAL_ID_VALIDATORS: Readonly<Record<string, { scheme: string; validate: NationalIdValidator }>> = {
  BR: { scheme: 'CPF', validate: validateCpf },
  MX: { scheme: 'CURP', validate: validateCurp },
  CL: { scheme: 'RUT', validate: validateRut },
  PE: { scheme: 'DNI', validate: validateDniPe },
  CO: { scheme: 'cedula', validate: validateCedulaCo },
};

/** Checks a national ID number; undefined when the country has no algorithm here. */
export function checkNationalId(country: string, value: string): (NationalIdCheck & { scheme: string }) | undefined {
  const entry = NATIONAL_ID_VALIDATORS[country.toUpperCase()];
  if (!entry) return undefined;
  return { ...entry.validate(value), scheme: entry.scheme };
}
