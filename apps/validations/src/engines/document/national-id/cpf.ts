import type { NationalIdCheck } from './national-id';

/**
 * Brazil, CPF (Cadastro de Pessoas Físicas): 11 digits, the last two are check digits, each the
 * remainder of a weighted sum modulo 11 (weights 10..2, then 11..2; remainder < 2 gives 0, else 11 − r).
 * Numbers of one repeated digit pass the arithmetic but are not issued, so they are refused.
 */
export function validateCpf(value: string): NationalIdCheck {
  const normalized = value.replace(/[.\-\s]/g, '');
  if (!/^\d{11}$/.test(normalized) || /^(\d)\1{10}$/.test(normalized))
    return { valid: false, normalized, reason: 'format' };
  const digits = [...normalized].map(Number);
  const dv = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += digits[i] * (length + 1 - i);
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  if (dv(9) !== digits[9] || dv(10) !== digits[10]) return { valid: false, normalized, reason: 'check_digit' };
  return { valid: true, normalized };
}
