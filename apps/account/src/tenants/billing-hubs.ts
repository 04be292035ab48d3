import { isFormBody } from '@kyc/platform';
import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, Matches } from 'class-validator';

export const BILLING_HUB_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_BILLING_HUBS = 50;

/**
 * A tenant's billing hubs as configured: each 1 to 64 letters, digits, `_` or `-`, kept
 * uppercase and without duplicates. A repeated form field is a list (a single one, a one-item list);
 * a single empty value (`billing_hubs=`) or `[]` in JSON is the empty list. JSON must send a list,
 * of names as they are (an empty or padded name is refused).
 */
export function BillingHubList(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value, obj }: { value: unknown; obj: unknown }) => {
      if (value === undefined || value === null) return value;
      // Only a form sends a one-item list as a single value; JSON sends the list (`"AAA"` is refused).
      if (!Array.isArray(value) && !isFormBody(obj)) return value;
      const list: unknown[] = Array.isArray(value) ? value : [value];
      // A form's fields are trimmed and an empty one is no hub; in JSON a name is as sent ("" is refused).
      const cleaned = isFormBody(obj)
        ? list.map((h) => (typeof h === 'string' ? h.trim() : h)).filter((h) => h !== '')
        : list;
      return cleaned.every((h) => typeof h === 'string')
        ? [...new Set(cleaned.map((h) => String(h).toUpperCase()))]
        : cleaned;
    }),
    IsArray({ message: 'billing_hubs must be a list of billing hubs' }),
    ArrayMaxSize(MAX_BILLING_HUBS, { message: `at most ${MAX_BILLING_HUBS} billing hubs` }),
    Matches(BILLING_HUB_PATTERN, { each: true, message: 'each billing hub must be 1 to 64 letters, digits, _ or -' }),
  );
}

/**
 * Why a user's billing hub is not acceptable for a tenant with these hubs, or undefined when it
 * is: with hubs, a user must name one (`required`), written exactly as listed; without hubs,
 * none may be given.
 */
export function billingHubProblem(
  hubs: readonly string[],
  given: string | undefined,
  required: boolean,
): string | undefined {
  if (!hubs.length) return given === undefined ? undefined : 'the account has no billing hubs: leave billing_hub out';
  if (given === undefined) return required ? `billing_hub is required: one of ${hubs.join(', ')}` : undefined;
  return hubs.includes(given) ? undefined : `billing_hub must be one of ${hubs.join(', ')}, exactly as listed`;
}
