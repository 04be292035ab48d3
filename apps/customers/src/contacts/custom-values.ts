import { FieldError } from '@kyc/platform';
import { isEmail } from 'class-validator';

import { ContactPropertyEntity } from './contact-property.entity';

type Value = string | number | boolean;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const isDate = (s: string) => {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
};

/** One value checked against its property's type: the typed value, or the problem. */
export function typedValue(property: ContactPropertyEntity, raw: unknown): { value: Value } | { problem: string } {
  const text = typeof raw === 'string' ? raw.trim() : raw;
  switch (property.type) {
    case 'string':
      return typeof text === 'string' && text.length <= 1000
        ? { value: text }
        : { problem: 'must be text of at most 1000 characters' };
    case 'int': {
      const n = typeof text === 'string' && /^-?\d{1,15}$/.test(text) ? Number(text) : text;
      return typeof n === 'number' && Number.isSafeInteger(n) ? { value: n } : { problem: 'must be an integer' };
    }
    case 'boolean': {
      const b = text === 'true' ? true : text === 'false' ? false : text;
      return typeof b === 'boolean' ? { value: b } : { problem: 'must be true or false' };
    }
    case 'date':
      return typeof text === 'string' && isDate(text) ? { value: text } : { problem: 'must be a date (YYYY-MM-DD)' };
    case 'email':
      return typeof text === 'string' && isEmail(text)
        ? { value: text.toLowerCase() }
        : { problem: 'must be an e-mail address' };
    case 'enum':
      return typeof text === 'string' && (property.enumValues ?? []).includes(text)
        ? { value: text }
        : { problem: `must be one of ${(property.enumValues ?? []).join(', ')}` };
  }
}

/**
 * Applies `values` (property id → raw value; null removes) to `current`: every unknown property
 * and every value of the wrong type is reported, each as `custom_property_values.<property_id>`.
 */
export function applyCustomValues(
  current: Record<string, Value>,
  values: Record<string, unknown> | undefined,
  properties: Map<string, ContactPropertyEntity>,
): { values: Record<string, Value>; problems: FieldError[] } {
  const out = { ...current };
  const problems: FieldError[] = [];
  for (const [id, raw] of Object.entries(values ?? {})) {
    const field = `custom_property_values.${id}`;
    const property = properties.get(id);
    if (!property) {
      problems.push({ field, message: `unknown contact property ${id}` });
      continue;
    }
    if (raw === null || raw === '') {
      delete out[id];
      continue;
    }
    const result = typedValue(property, raw);
    if ('problem' in result) problems.push({ field, message: `${property.name} (${property.type}) ${result.problem}` });
    else out[id] = result.value;
  }
  return { values: out, problems };
}
