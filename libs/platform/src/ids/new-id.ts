import { randomUUID } from 'node:crypto';

/**
 * A new resource id: the resource's prefix (`RUL`, `CUS`, `IDP`) then random hex digits, 32 by default
 * (a v4 UUID without its dashes), fewer where a resource's ids are shorter.
 */
export function newId(prefix: string, hexDigits = 32): string {
  const hex = randomUUID().replace(/-/g, '');
  return `${prefix}${hexDigits < 32 ? hex.slice(0, hexDigits) : hex}`;
}
