import type { FieldError } from '@kyc/platform';

/** A continuous check's frequency: every `count` days, weeks, months or years. */
export interface Frequency {
  count: number;
  unit: 'd' | 'w' | 'm' | 'y';
}

const NAMED: Record<string, Frequency> = {
  daily: { count: 1, unit: 'd' },
  weekly: { count: 1, unit: 'w' },
  monthly: { count: 1, unit: 'm' },
  yearly: { count: 1, unit: 'y' },
};

/** At most 999 units between runs (e.g. `999d`); 0 is not a frequency. */
const CUSTOM = /^([1-9][0-9]{0,2})([dwmy])$/;

export const FREQUENCY_MESSAGE =
  'frequency must be daily, weekly, monthly, yearly or <n>d|w|m|y (n from 1 to 999, e.g. 3d, 2w)';

/** daily, weekly, monthly, yearly or `<n>d|w|m|y`; undefined when it is none of them. */
export function parseFrequency(value: unknown): Frequency | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  if (NAMED[v]) return NAMED[v];
  const m = CUSTOM.exec(v);
  return m ? { count: Number(m[1]), unit: m[2] as Frequency['unit'] } : undefined;
}

/**
 * The k-th due time after `anchor` (k >= 1), always computed from the anchor so months do not
 * drift: monthly from Jan 31 gives Feb 28 (or 29), Mar 31, Apr 30, ... (UTC calendar).
 */
export function dueTime(anchor: Date, f: Frequency, k: number): Date {
  const n = f.count * k;
  if (f.unit === 'd' || f.unit === 'w') return new Date(anchor.getTime() + n * (f.unit === 'w' ? 7 : 1) * 86_400_000);
  const months = f.unit === 'y' ? 12 * n : n;
  const y = anchor.getUTCFullYear();
  const mo = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, mo + 1, 0)).getUTCDate();
  const d = new Date(anchor.getTime());
  d.setUTCFullYear(y, mo, Math.min(anchor.getUTCDate(), lastDay));
  return d;
}

/** The first due time after `anchor` that is strictly later than `after` (no catch-up of missed runs). */
export function nextDueAfter(anchor: Date, f: Frequency, after: Date): Date {
  // Jump close first (days/weeks exactly; months/years approximately), then step.
  const approxMs = f.count * { d: 1, w: 7, m: 28, y: 365 }[f.unit] * 86_400_000;
  let k = Math.max(1, Math.floor((after.getTime() - anchor.getTime()) / approxMs) - 1);
  while (k > 1 && dueTime(anchor, f, k - 1) > after) k--;
  while (dueTime(anchor, f, k) <= after) k++;
  return dueTime(anchor, f, k);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` that is a real calendar date, as the first instant of that day (UTC). */
export function parseDate(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const m = DATE.exec(value.trim());
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3])
    ? d
    : undefined;
}

/** Runs happen while their due time is before the end of end_date (UTC): end_date is inclusive. */
export const endOfDate = (endDate: Date): Date => new Date(endDate.getTime() + 86_400_000);

/** A due time is within the schedule when it falls on or before end_date (UTC). */
export const withinEnd = (due: Date, endDate: Date): boolean => due < endOfDate(endDate);

/**
 * The rules of end_date: a real `YYYY-MM-DD` date on which or before which at least one run falls
 * (the first run is one period after `now`).
 */
export function endDateError(value: unknown, frequency: Frequency | undefined, now: Date): FieldError | undefined {
  if (value === undefined || value === null || value === '')
    return { field: 'end_date', message: 'end_date is required (YYYY-MM-DD)' };
  const end = parseDate(value);
  if (!end) return { field: 'end_date', message: 'end_date must be a date YYYY-MM-DD' };
  if (!frequency) return undefined;
  const first = dueTime(now, frequency, 1);
  if (!withinEnd(first, end)) {
    return {
      field: 'end_date',
      message: `end_date must allow at least one run: with this frequency the first run is on ${first.toISOString().slice(0, 10)}`,
    };
  }
  return undefined;
}
