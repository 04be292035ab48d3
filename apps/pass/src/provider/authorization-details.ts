/**
 * `authorization_details` of a CIBA request (RFC 9396): a JSON array of objects, each with a `type`. Pass reads
 * two members of each entry and shows the others as given:
 *
 * - `attachments`: `[{ "s3_key": "approvals/<client_id>/…" }]`, files staged through
 *   POST /v1/oauth2/approval-attachments by the same application for the same approver and uploaded;
 * - `form_fields`: the data the approver fills in on the approval page, returned as `form_data` by
 *   GET /v1/oauth2/approval-outcome: `[{ "name": "amount", "label": "Amount", "type": "number", "required": true }]`.
 */

import type { FieldErrorCode } from '../pages/i18n/messages';

export type { FieldErrorCode };
export const FORM_FIELD_TYPES = ['text', 'number', 'date', 'email', 'checkbox', 'select'] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

export interface FormField {
  name: string;
  label: string;
  type: FormFieldType;
  required: boolean;
  /** select only: the allowed values. */
  options?: string[];
  /** text only: at most this many characters (default and maximum 1000). */
  max_length?: number;
}

export interface AuthorizationDetail {
  type: string;
  attachments: { s3_key: string }[];
  form_fields: FormField[];
  /** The entry as the application sent it. */
  raw: Record<string, unknown>;
}

export const AUTHORIZATION_DETAILS_MAX_CHARS = 20_000;
const MAX_ENTRIES = 10;
const MAX_ATTACHMENTS = 10;
const MAX_FIELDS = 20;
const TEXT_MAX = 1000;
const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** A refusal of the request (bc-authorize answers 400 invalid_request with this description). */
export class InvalidAuthorizationDetails extends Error {}

const fail = (message: string): never => {
  throw new InvalidAuthorizationDetails(message);
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const shortText = (v: unknown, max: number) =>
  typeof v === 'string' && v.trim() !== '' && v.length <= max && !/\p{Cc}/u.test(v);

function parseField(v: unknown, at: string): FormField {
  if (!isObject(v)) return fail(`${at} must be an object`);
  if (typeof v.name !== 'string' || !FIELD_NAME.test(v.name))
    fail(`${at}.name must be 1-64 lowercase letters, digits or _ starting with a letter`);
  if (v.label !== undefined && !shortText(v.label, 100)) fail(`${at}.label must be 1-100 printable characters`);
  const type = v.type ?? 'text';
  if (!FORM_FIELD_TYPES.includes(type as FormFieldType))
    fail(`${at}.type must be one of ${FORM_FIELD_TYPES.join(', ')}`);
  if (v.required !== undefined && typeof v.required !== 'boolean') fail(`${at}.required must be a boolean`);
  const field: FormField = {
    name: v.name as string,
    label: (v.label as string | undefined) ?? (v.name as string),
    type: type as FormFieldType,
    required: v.required === true,
  };
  if (field.type === 'select') {
    const options = v.options;
    if (
      !Array.isArray(options) ||
      options.length < 1 ||
      options.length > 50 ||
      !options.every((o) => shortText(o, 100))
    )
      fail(`${at}.options must be 1-50 values of 1-100 printable characters`);
    if (new Set(options as string[]).size !== (options as string[]).length) fail(`${at}.options must be distinct`);
    field.options = options as string[];
  } else if (v.options !== undefined) fail(`${at}.options is only for select fields`);
  if (v.max_length !== undefined) {
    if (field.type !== 'text') fail(`${at}.max_length is only for text fields`);
    if (!Number.isInteger(v.max_length) || (v.max_length as number) < 1 || (v.max_length as number) > TEXT_MAX)
      fail(`${at}.max_length must be an integer from 1 to ${TEXT_MAX}`);
    field.max_length = v.max_length as number;
  }
  return field;
}

/** Parses and checks the parameter; throws InvalidAuthorizationDetails with what is wrong. */
export function parseAuthorizationDetails(value: string): AuthorizationDetail[] {
  if (value.length > AUTHORIZATION_DETAILS_MAX_CHARS)
    fail(`authorization_details must be at most ${AUTHORIZATION_DETAILS_MAX_CHARS} characters`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return fail('authorization_details must be a JSON array');
  }
  if (!Array.isArray(parsed) || parsed.length < 1 || parsed.length > MAX_ENTRIES)
    fail(`authorization_details must be a JSON array of 1 to ${MAX_ENTRIES} objects`);
  const names = new Set<string>();
  const keys = new Set<string>();
  return (parsed as unknown[]).map((entry, i) => {
    const at = `authorization_details[${i}]`;
    if (!isObject(entry)) return fail(`${at} must be an object`);
    if (!shortText(entry.type, 100)) fail(`${at}.type is required (RFC 9396)`);
    const attachments = entry.attachments ?? [];
    if (!Array.isArray(attachments) || attachments.length > MAX_ATTACHMENTS)
      fail(`${at}.attachments must be an array of at most ${MAX_ATTACHMENTS} objects`);
    const refs = (attachments as unknown[]).map((a, j) => {
      if (!isObject(a) || !shortText(a.s3_key, 300)) return fail(`${at}.attachments[${j}].s3_key is required`);
      if (keys.has(a.s3_key as string)) fail(`${at}.attachments[${j}].s3_key is listed twice`);
      keys.add(a.s3_key as string);
      return { s3_key: a.s3_key as string };
    });
    const fieldsIn = entry.form_fields ?? [];
    if (!Array.isArray(fieldsIn) || fieldsIn.length > MAX_FIELDS)
      fail(`${at}.form_fields must be an array of at most ${MAX_FIELDS} fields`);
    const fields = (fieldsIn as unknown[]).map((f, j) => {
      const field = parseField(f, `${at}.form_fields[${j}]`);
      if (names.has(field.name)) fail(`${at}.form_fields[${j}].name ${field.name} is used twice`);
      names.add(field.name);
      return field;
    });
    return { type: entry.type as string, attachments: refs, form_fields: fields, raw: entry };
  });
}

export type FormData = Record<string, string | number | boolean>;

/** The largest text answer of a field (its max_length, at most 1000). */
export const maxLengthOf = (f: FormField): number => f.max_length ?? TEXT_MAX;

/**
 * The approver's answers, checked against the requested fields: returns the form data, or why each refused
 * answer is refused (a code the page says in the approver's language).
 */
export function readFormData(
  fields: FormField[],
  submitted: Record<string, unknown>,
): { data: FormData; errors: Record<string, FieldErrorCode> } {
  const data: FormData = {};
  const errors: Record<string, FieldErrorCode> = {};
  for (const f of fields) {
    const raw = submitted[`field_${f.name}`];
    if (raw !== undefined && typeof raw !== 'string') {
      errors[f.name] = 'once';
      continue;
    }
    const value = raw?.trim() ?? '';
    if (f.type === 'checkbox') {
      if (value !== '' && value !== 'on') errors[f.name] = 'checkbox';
      else if (f.required && value === '') errors[f.name] = 'must_check';
      else data[f.name] = value === 'on';
      continue;
    }
    if (value === '') {
      if (f.required) errors[f.name] = 'required';
      continue;
    }
    if (/\p{Cc}/u.test(value.replace(/\r?\n/g, ''))) errors[f.name] = 'control';
    else if (f.type === 'number') {
      const n = Number(value);
      if (!/^-?\d+(\.\d+)?$/.test(value) || !Number.isFinite(n)) errors[f.name] = 'number';
      else data[f.name] = n;
    } else if (f.type === 'date') {
      const d = new Date(`${value}T00:00:00Z`);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value)
        errors[f.name] = 'date';
      else data[f.name] = value;
    } else if (f.type === 'email') {
      if (value.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) errors[f.name] = 'email';
      else data[f.name] = value;
    } else if (f.type === 'select') {
      if (!f.options!.includes(value)) errors[f.name] = 'option';
      else data[f.name] = value;
    } else if (value.length > (f.max_length ?? TEXT_MAX)) errors[f.name] = 'too_long';
    else data[f.name] = value;
  }
  return { data, errors };
}
