import type { NationalIdCheck } from './national-id';

/**
 * Chile, RUT/RUN (Rol Único Tributario / Nacional): a body of up to 8 digits and a verifier
 * (módulo 11): the body's digits from the right weighted 2, 3, 4, 5, 6, 7, 2, 3..., v = 11 − sum mod 11,
 * 11 → 0, 10 → K. Dots, a dash or an MRZ filler (<) may separate the verifier.
 */
export function validateRut(value: string): NationalIdCheck {
  const normalized = value.replace(/[.\s<-]/g, '').toUpperCase();
  const match = /^(\d{1,8})([0-9K])$/.exec(normalized);
  if (!match) return { valid: false, normalized, reason: 'format' };
  const body = match[1];
  let sum = 0;
  let weight = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += Number(body[i]) * weight;
    weight = weight === 7 ? 2 : weight + 1;
  }
  const v = 11 - (sum % 11);
  const expected = v === 11 ? '0' : v === 10 ? 'K' : String(v);
  if (expected !== match[2]) return { valid: false, normalized: `${body}-${match[2]}`, reason: 'check_digit' };
  return { valid: true, normalized: `${body}-${match[2]}` };
}

/** The verifier of a RUT body (for building test data). */
export function rutVerifier(body: string): string {
  let sum = 0;
  let weight = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += Number(body[i]) * weight;
    weight = weight === 7 ? 2 : weight + 1;
  }
  const v = 11 - (sum % 11);
  return v === 11 ? '0' : v === 10 ? 'K' : String(v);
}
