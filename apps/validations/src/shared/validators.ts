import { Transform } from 'class-transformer';
import { Equals, IsISO31661Alpha2, registerDecorator, ValidationOptions } from 'class-validator';

export const ACCOUNT_ID_PATTERN = /^[a-zA-Z0-9_.-]+$/;
export const PHONE_PATTERN = /^\+?[1-9][0-9]{6,14}$/;

/** RFC 3339 full-date (YYYY-MM-DD) naming a real calendar day. */
export function IsFullDate(options?: ValidationOptions): PropertyDecorator {
  return (target: object, key: string | symbol) =>
    registerDecorator({
      name: 'isFullDate',
      target: target.constructor,
      propertyName: String(key),
      options: { message: `${String(key)} must be a date in the RFC 3339 form YYYY-MM-DD`, ...options },
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
          const d = new Date(`${value}T00:00:00Z`);
          return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value);
        },
      },
    });
}

/** ISO 3166-1 alpha-2 (upper-cased first; the document lists the codes). */
export const IsCountryCode = (options?: ValidationOptions): PropertyDecorator =>
  IsISO31661Alpha2({ message: (a) => `${a.property} must be an ISO 3166 alpha-2 country code`, ...options });

/** Trims, and upper-cases strings (country codes). */
export const UpperTrim = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value));

/** A number sent as a form string: "0.7" -> 0.7; anything else kept for the validators to report. */
export const ToNumber = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value,
  );

/** The field may be given only for these values of `type` (e.g. confirmation: face-recognition only). */
export function OnlyForTypes(types: readonly string[], options?: ValidationOptions): PropertyDecorator {
  return (target: object, key: string | symbol) =>
    registerDecorator({
      name: 'onlyForTypes',
      target: target.constructor,
      propertyName: String(key),
      options: { message: `${String(key)} applies to type ${types.join(' or ')} only`, ...options },
      validator: {
        validate: (value: unknown, args) =>
          value === undefined || types.includes(String((args?.object as { type?: unknown }).type)),
      },
    });
}

/** user_authorized must be true (the user consented to the validation); the document says `enum: [true]`. */
export const MustBeTrue = (options?: ValidationOptions): PropertyDecorator =>
  Equals(true, { message: (a) => `${a.property} must be true`, ...options });

/**
 * country depends on type: for each type listed, the countries allowed and whether it is
 * required; for a type not listed the field must be absent.
 */
export function IsCountryForType(
  rules: Record<string, { countries: readonly string[]; required: boolean }>,
): PropertyDecorator {
  return (target: object, key: string | symbol) =>
    registerDecorator({
      name: 'isCountryForType',
      target: target.constructor,
      propertyName: String(key),
      validator: {
        validate(value: unknown, args) {
          const rule = rules[String((args?.object as { type?: unknown }).type)];
          if (!rule) return value === undefined;
          if (value === undefined) return !rule.required;
          return typeof value === 'string' && rule.countries.includes(value);
        },
        defaultMessage(args) {
          const type = String((args?.object as { type?: unknown }).type);
          const rule = rules[type];
          if (!rule) return `${String(key)} does not apply to type ${type}`;
          return `${String(key)} ${rule.required ? 'is required and ' : ''}must be one of ${rule.countries.join(', ')} for ${type}`;
        },
      },
    });
}
