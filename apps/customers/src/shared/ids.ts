import { randomUUID } from 'node:crypto';

/** Record ids: a three-letter prefix and 32 hex digits (CUS… profile, TRX… transaction, SEG… segment, …). */
export const newId = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, '')}`;
