import { Transform } from 'class-transformer';

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

/** A repeated form field arrives as an array, a single one as a string: always give an array. */
export function ToArray(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    value === undefined || value === null ? value : Array.isArray(value) ? value : [value],
  );
}

/** Trims strings; leaves other values for the validators. */
export function Trim(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
}
