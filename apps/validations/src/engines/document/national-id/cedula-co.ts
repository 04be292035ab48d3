import type { NationalIdCheck } from './national-id';

const NIT_WEIGHTS = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71];

/**
 * Colombia, cédula de ciudadanía: 3 to 10 digits without a leading zero. The number itself carries no
 * check digit; when it is written as a NIT (the same number with the DIAN's verification digit after a
 * dash, e.g. 1020304050-1), the digit is checked: digits from the right weighted 3, 7, 13, 17, 19, 23, 29,
 * 37, 41, 43, 47, 53, 59, 67, 71, r = sum mod 11, dv = r < 2 ? r : 11 − r.
 */
export function validateCedulaCo(value: string): NationalIdCheck {
  const normalized = value.replace(/[.\s]/g, '');
  const match = /^([1-9]\d{2,9})(?:-(\d))?$/.exec(normalized);
  if (!match) return { valid: false, normalized, reason: 'format' };
  if (match[2] !== undefined && nitVerifier(match[1]) !== Number(match[2]))
    return { valid: false, normalized, reason: 'check_digit' };
  return { valid: true, normalized };
}

export function nitVerifier(number: string): number {
  let sum = 0;
  for (let i = 0; i < number.length; i++) sum += Number(number[number.length - 1 - i]) * NIT_WEIGHTS[i];
  const r = sum % 11;
  return r < 2 ? r : 11 - r;
}
