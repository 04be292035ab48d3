/** `+57 300-123 4567`, `573001234567` → `+573001234567` (E.164: a plus and the digits). */
export const e164 = (phone: string): string => `+${phone.replace(/\D/g, '')}`;

/** Country code (with or without plus) and national number → E.164. */
export const joinPhone = (countryCode: string, number: string): string =>
  e164(`${countryCode.replace(/\D/g, '')}${number.replace(/\D/g, '')}`);

/** A public id: a prefix and 32 hex characters (OTB…, IBF…, MSG…, CMP…); the platform's. */
export { newId } from '@kyc/platform';

/** Ids of identity flows and accounts: letters, digits, `_`, `.`, `-` (flows are validated by identity once it has them). */
export const ID_PATTERN = /^[a-zA-Z0-9_.-]+$/;
/** A phone with country code, as lines are named on the wire. */
export const LINE_PHONE_PATTERN = /^\+?[0-9 ()-]{8,20}$/;
