import type { NationalIdCheck } from './national-id';

const WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2];
const NUMERIC = ['6', '7', '8', '9', '0', '1', '1', '2', '3', '4', '5'];
const ALPHA = ['K', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'];

/**
 * Peru, DNI (Documento Nacional de Identidad): 8 digits, optionally followed by the card's
 * verification character (printed after the number): sum of the digits weighted 3, 2, 7, 6, 5, 4, 3, 2,
 * k = 11 − sum mod 11 (11 → 0); the character is 6789011234 5[k] as a digit or KABCDEFGHIJ[k] as a letter.
 */
export function validateDniPe(value: string): NationalIdCheck {
  const normalized = value.replace(/[\s-]/g, '').toUpperCase();
  const match = /^(\d{8})([0-9A-K])?$/.exec(normalized);
  if (!match) return { valid: false, normalized, reason: 'format' };
  if (match[2] === undefined) return { valid: true, normalized };
  const index = dniPeIndex(match[1]);
  if (NUMERIC[index] !== match[2] && ALPHA[index] !== match[2])
    return { valid: false, normalized, reason: 'check_digit' };
  return { valid: true, normalized };
}

function dniPeIndex(digits: string): number {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(digits[i]) * WEIGHTS[i];
  const k = 11 - (sum % 11);
  return k === 11 ? 0 : k;
}

/** The numeric verification character of a DNI (for building test data). */
export function dniPeVerifier(digits: string): string {
  return NUMERIC[dniPeIndex(digits)];
}
