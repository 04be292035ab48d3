import type { NationalIdCheck } from './national-id';

const CURP_PATTERN =
  /^[A-Z][AEIOUX][A-Z]{2}\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])[HMX](AS|BC|BS|CC|CL|CM|CS|CH|DF|DG|GT|GR|HG|JC|MC|MN|MS|NT|NL|OC|PL|QT|QR|SP|SL|SR|TC|TS|TL|VZ|YN|ZS|NE)[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z]\d$/;
const CURP_ALPHABET = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';

/**
 * Mexico, CURP (Clave Única de Registro de Población): 18 characters (name initials, date of birth,
 * sex H/M/X, state, inner consonants, homoclave) and a check digit: each of the first 17 characters
 * takes its index in 0-9A-NÑO-Z, weighted 18..2; the digit is (10 − sum mod 10) mod 10 (RENAPO).
 */
export function validateCurp(value: string): NationalIdCheck {
  const normalized = value.replace(/[\s-]/g, '').toUpperCase();
  if (!CURP_PATTERN.test(normalized)) return { valid: false, normalized, reason: 'format' };
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += CURP_ALPHABET.indexOf(normalized[i]) * (18 - i);
  const digit = (10 - (sum % 10)) % 10;
  if (digit !== Number(normalized[17])) return { valid: false, normalized, reason: 'check_digit' };
  return { valid: true, normalized };
}
