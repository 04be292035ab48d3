import type { NamesMatchingType } from '@kyc/contracts';

/** Upper case, accents and punctuation removed, single spaces: "  Pérez-Gómez, José " -> "PEREZ GOMEZ JOSE". */
export function normalizeName(name: string): string {
  let normalized = normalizedNames.get(name);
  if (normalized === undefined) {
    normalized = name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, ' ')
      .trim();
    // Scoring and the sandbox compare the same few names over and over: remember the latest ones.
    if (normalizedNames.size >= 10_000) normalizedNames.clear();
    normalizedNames.set(name, normalized);
  }
  return normalized;
}
const normalizedNames = new Map<string, string>();

const tokens = (name: string) => normalizeName(name).split(' ').filter(Boolean);

/** At most one insertion, deletion or substitution apart. */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/** Tokens match when equal, or one edit apart when both have at least 5 letters (Gomez/Gomes). */
const similarTokens = (a: string, b: string) => a === b || (a.length >= 5 && b.length >= 5 && withinOneEdit(a, b));

/**
 * exact: identical normalized names (case, accents and punctuation ignored; token order matters).
 * soft: similar names of one person: token order ignored, one name may omit tokens of the other
 * (a second surname or middle name) as long as at least two tokens match, and long tokens may
 * differ by one letter.
 */
export function namesMatch(searched: string, found: string, mode: NamesMatchingType): boolean {
  const a = normalizeName(searched);
  const b = normalizeName(found);
  if (!a || !b) return false;
  if (mode === 'exact') return a === b;
  const [shorter, longer] =
    tokens(searched).length <= tokens(found).length
      ? [tokens(searched), tokens(found)]
      : [tokens(found), tokens(searched)];
  if (shorter.length < 2 && shorter.length !== longer.length) return false;
  const pool = [...longer];
  for (const t of shorter) {
    const i = pool.findIndex((p) => similarTokens(t, p));
    if (i < 0) return false;
    pool.splice(i, 1);
  }
  return true;
}

export const fullName = (first?: string | null, last?: string | null) =>
  [first, last]
    .filter((s) => s && s.trim())
    .join(' ')
    .trim();
