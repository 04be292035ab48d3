import { PageLanguage } from '@kyc/platform';

import { en } from './en';
import { es } from './es';
import type { PassMessages } from './pass-messages';
import { pt } from './pt';

export type { DescribedScope, FieldErrorCode, PassMessages } from './pass-messages';

/**
 * Every string of pass's pages per language: one catalog file per language (es.ts, en.ts, pt.ts), each a
 * PassMessages (pass-messages.ts), so a key missing from one fails the type-check.
 */
export const PASS_MESSAGES: Record<PageLanguage, PassMessages> = { es, en, pt };

/** A requested scope in the person's words (a scope without words is shown as it is). */
export function describeScope(m: PassMessages, scope: string): string {
  const known = (m.scopes as Readonly<Record<string, string | undefined>>)[scope];
  if (known) return known;
  const doc = /^document:([a-zA-Z]{2}|ALL):(.+)$/.exec(scope);
  return doc ? m.documentScope(doc[1], doc[2]) : scope;
}
