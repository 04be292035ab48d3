import { Transform } from 'class-transformer';

import { isFormBody } from './validation.pipe';

/**
 * Form values arrive as strings: "true"/"false" (any case) become booleans; anything else is
 * kept as given so @IsBoolean() reports it.
 */
export function ToBoolean(): PropertyDecorator {
  return Transform(({ obj, key }: { obj: Record<string, unknown>; key: string }) => parseBoolean(obj[key]));
}

export function parseBoolean(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (v === 'true') return true;
    if (v === 'false') return false;
  }
  return value;
}

/**
 * A repeated form (or query) field arrives as an array, a single one as a string: a form always gives an
 * array. A JSON body sends the list itself: a single value there is left for @IsArray() to refuse.
 */
export function ToArray(): PropertyDecorator {
  return Transform(({ value, obj }: { value: unknown; obj: unknown }) =>
    value === undefined || value === null || Array.isArray(value) || !isFormBody(obj) ? value : [value],
  );
}

const TRIMMED = Symbol('kyc:trimmed');

/** Trims strings; leaves other values for the validators. */
export function Trim(): PropertyDecorator {
  const transform = Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
  return (target, key) => {
    Reflect.defineMetadata(TRIMMED, true, target, key);
    transform(target, key);
  };
}

/** Whether `@Trim()` trims the property before its rules run (the document then asks for a non-space character). */
export const isTrimmed = (prototype: object, property: string): boolean =>
  Reflect.getMetadata(TRIMMED, prototype, property) === true;
