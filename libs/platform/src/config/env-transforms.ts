import { Transform } from 'class-transformer';

/**
 * The one reading of a boolean environment variable: true, 1, yes / false, 0, no, or empty (any
 * case); anything else is kept as given so @IsBoolean() refuses it at boot.
 */
export function parseEnvBoolean(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(v)) return true;
  if (['false', '0', 'no', ''].includes(v)) return false;
  return value;
}

/** A boolean environment variable (parseEnvBoolean); pair it with @IsBoolean(). */
export function EnvBoolean(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => parseEnvBoolean(value));
}

/** A numeric environment variable: strings become numbers (NaN for non-numbers, refused by @IsInt/@IsNumber). */
export function EnvNumber(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? Number(value) : value));
}
