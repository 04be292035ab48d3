import { createHash } from 'node:crypto';

import type { Severity } from '@kyc/contracts';

import type { SearchRoute } from '../collector';
import type { SandboxDatabaseSpec } from './sandbox-databases';

/** A number in [0, 1) fixed by its parts (the sandbox's only source of "randomness"). */
export function hashUnit(...parts: (string | number | null | undefined)[]): number {
  const digest = createHash('sha256')
    .update(parts.map((p) => String(p ?? '')).join('\u0001'))
    .digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/**
 * Severity of a dataset for an ID the sandbox does not know: mostly clean.
 * < 0.85 nothing found; < 0.90 very_low; < 0.94 low; < 0.97 medium; < 0.99 high; else very_high.
 */
export function unknownSubjectSeverity(u: number): Severity {
  if (u < 0.85) return 'none';
  if (u < 0.9) return 'very_low';
  if (u < 0.94) return 'low';
  if (u < 0.97) return 'medium';
  if (u < 0.99) return 'high';
  return 'very_high';
}

/** Identity of an unknown ID: found (95 %) or not in the registry (5 %). */
export const unknownIdentityFound = (u: number) => u < 0.95;

/** A name the sandbox does not know is found in a name-searched dataset 4 % of the time, with low severity. */
export const UNKNOWN_NAME_FINDING_RATE = 0.04;

export const normalizeId = (v: string | undefined) => (v ? v.replace(/[\s.\-/]/g, '').toUpperCase() : undefined);

export interface SearchInput {
  spec: SandboxDatabaseSpec;
  search: SearchRoute;
  searchInputs: string[];
  inputs: Readonly<Record<string, string>>;
  region: string | null;
  now: Date;
}
