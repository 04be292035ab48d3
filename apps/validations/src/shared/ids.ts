import { randomBytes, randomInt } from 'node:crypto';

/** `<prefix>` + 32 hex digits, time-ordered (48-bit milliseconds, then 80 random bits). */
export const newId = (prefix: string, now = Date.now()) =>
  `${prefix}${now.toString(16).padStart(12, '0').slice(-12)}${randomBytes(10).toString('hex')}`;

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random alphanumeric account id (when the client gives none). */
export const randomAccountId = (length = 24) =>
  Array.from({ length }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');

export const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : undefined);
