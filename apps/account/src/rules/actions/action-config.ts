import { CHECK_COUNTRIES } from '@kyc/contracts';
import { FieldError } from '@kyc/platform';
import { isEmail } from 'class-validator';

import { CHECK_INPUT_NAMES } from '../engine/check-variables';
import { parseTemplate, templateError } from '../templates/template';

export const ACTION_TYPES = ['http_request', 'email', 'create_check'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const ACTION_STATUSES = ['enabled', 'disabled'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Headers the engine sets itself (or the HTTP client owns); a configuration cannot set them. */
export const RESERVED_HEADERS = [
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'x-signature',
  'idempotency-key',
  'x-kyc-event-id',
  'x-kyc-execution-id',
];

/**
 * http_request: `url` (http or https; a template), `method` (default POST), `headers` (name →
 * template), `body` (a template; default: a JSON document with the event and its check),
 * `timeout_ms` (100 to 30000, default 10000), `max_attempts` (1 to 10, default 5).
 */
export interface HttpRequestConfig {
  url: string;
  method: (typeof HTTP_METHODS)[number];
  headers: Record<string, string>;
  body?: string;
  timeout_ms: number;
  max_attempts: number;
}

/** email: `to` (1 to 20 addresses or templates), `cc` (0 to 20), `subject` and `body` (text) templates, `max_attempts`. */
export interface EmailConfig {
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  max_attempts: number;
}

/** create_check: the check `type` and `country`, and `inputs` (check input name → template over the event's variables). */
export interface CreateCheckConfig {
  type: string;
  country: string;
  inputs: Record<string, string>;
}

export type ActionConfig = HttpRequestConfig | EmailConfig | CreateCheckConfig;

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_ATTEMPTS = 5;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
const CHECK_TYPE = /^[A-Za-z0-9_-]{1,64}$/;

type Raw = Record<string, unknown>;

/** Collects field errors under `config.` while building the normalized configuration. */
class Checker {
  readonly errors: FieldError[] = [];

  constructor(readonly raw: Raw) {}

  fail(field: string, message: string): undefined {
    this.errors.push({ field: `config.${field}`, message: `config.${field} ${message}` });
    return undefined;
  }

  template(
    field: string,
    value: unknown,
    { required = false, max = 4096, singleLine = false } = {},
  ): string | undefined {
    if (value === undefined || value === null || value === '')
      return required ? this.fail(field, 'is required') : undefined;
    if (typeof value !== 'string') return this.fail(field, 'must be text');
    if (value.length > max) return this.fail(field, `must be at most ${max} characters`);
    if (singleLine && /[\r\n]/.test(value)) return this.fail(field, 'must be a single line');
    const problem = templateError(value);
    if (problem) return this.fail(field, `is not a valid template: ${problem}`);
    return value;
  }

  int(field: string, min: number, max: number, fallback: number): number {
    const value = this.raw[field];
    if (value === undefined || value === null || value === '') return fallback;
    const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
      this.fail(field, `must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return n;
  }

  /** An object of name → template; `{ "a": "b" }`, or "Name: value" lines (a repeated form field). */
  record(
    field: string,
    check: (name: string) => string | undefined,
    maxEntries: number,
    valueMax: number,
    singleLine: boolean,
  ): Record<string, string> {
    let value = this.raw[field];
    if (value === undefined || value === null || value === '') return {};
    if (typeof value === 'string' || Array.isArray(value)) {
      const lines = (Array.isArray(value) ? value : [value]).map(String);
      const entries: [string, string][] = [];
      for (const line of lines) {
        const at = line.indexOf(':');
        if (at <= 0) {
          this.fail(field, 'must be an object, or "Name: value" entries');
          return {};
        }
        entries.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
      }
      value = Object.fromEntries(entries);
    }
    if (typeof value !== 'object' || value === null) {
      this.fail(field, 'must be an object');
      return {};
    }
    const entries = Object.entries(value as Raw);
    if (entries.length > maxEntries) this.fail(field, `must have at most ${maxEntries} entries`);
    const out: Record<string, string> = {};
    for (const [name, v] of entries) {
      const problem = check(name);
      if (problem) {
        this.fail(`${field}.${name}`, problem);
        continue;
      }
      const t = this.template(`${field}.${name}`, v ?? '', { max: valueMax, singleLine });
      if (t !== undefined || v === '') out[name] = t ?? '';
    }
    return out;
  }

  /** A list of addresses (an array, a repeated form field, or one comma-separated string). */
  addresses(field: string, min: number, max: number): string[] {
    const value = this.raw[field];
    const list = (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value])
      .flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]))
      .map((v) => (typeof v === 'string' ? v.trim() : v))
      .filter((v) => v !== '');
    if (list.length < min)
      this.fail(field, min === 1 ? 'needs at least one address' : `needs at least ${min} addresses`);
    if (list.length > max) this.fail(field, `must have at most ${max} addresses`);
    const out: string[] = [];
    list.forEach((v, i) => {
      if (typeof v !== 'string') return void this.fail(`${field}[${i}]`, 'must be an e-mail address');
      const problem = templateError(v);
      if (problem) return void this.fail(`${field}[${i}]`, `is not a valid template: ${problem}`);
      const isTemplate = parseTemplate(v).some((p) => typeof p !== 'string');
      if (!isTemplate && !isEmail(v)) return void this.fail(`${field}[${i}]`, `"${v}" is not an e-mail address`);
      out.push(v);
    });
    return out;
  }
}

function httpRequest(c: Checker): HttpRequestConfig {
  const url = c.template('url', c.raw.url, { required: true, max: 2048, singleLine: true });
  if (url !== undefined) {
    if (!/^https?:\/\//i.test(url)) c.fail('url', 'must start with http:// or https://');
    else {
      try {
        new URL(url.replace(/\{\{[^}]*\}\}/g, 'x'));
      } catch {
        c.fail('url', 'is not a valid URL');
      }
    }
  }
  const method = c.raw.method === undefined || c.raw.method === '' ? 'POST' : String(c.raw.method).toUpperCase();
  if (!(HTTP_METHODS as readonly string[]).includes(method))
    c.fail('method', `must be one of ${HTTP_METHODS.join(', ')}`);
  const headers = c.record(
    'headers',
    (name) =>
      !HEADER_NAME.test(name)
        ? 'is not a valid header name'
        : RESERVED_HEADERS.includes(name.toLowerCase())
          ? 'is set by the rules engine and cannot be configured'
          : undefined,
    30,
    4096,
    true,
  );
  const body = c.template('body', c.raw.body, { max: 65_536 });
  if (body !== undefined && method === 'GET') c.fail('body', 'cannot be sent with GET');
  return {
    url: url ?? '',
    method: method as HttpRequestConfig['method'],
    headers,
    ...(body !== undefined ? { body } : {}),
    timeout_ms: c.int('timeout_ms', 100, 30_000, DEFAULT_TIMEOUT_MS),
    max_attempts: c.int('max_attempts', 1, 10, DEFAULT_MAX_ATTEMPTS),
  };
}

function email(c: Checker): EmailConfig {
  return {
    to: c.addresses('to', 1, 20),
    cc: c.addresses('cc', 0, 20),
    subject: c.template('subject', c.raw.subject, { required: true, max: 500, singleLine: true }) ?? '',
    body: c.template('body', c.raw.body, { required: true, max: 65_536 }) ?? '',
    max_attempts: c.int('max_attempts', 1, 10, DEFAULT_MAX_ATTEMPTS),
  };
}

function createCheck(c: Checker): CreateCheckConfig {
  const type = c.raw.type;
  if (type === undefined || type === '') c.fail('type', 'is required (person, vehicle, company or a custom type name)');
  else if (typeof type !== 'string' || !CHECK_TYPE.test(type))
    c.fail('type', 'must be a check type name: 1 to 64 letters, digits, _ or -');
  const country = c.raw.country;
  if (country === undefined || country === '') c.fail('country', 'is required');
  else if (!(CHECK_COUNTRIES as readonly unknown[]).includes(country))
    c.fail('country', `must be one of ${CHECK_COUNTRIES.join(', ')}`);
  const inputs = c.record(
    'inputs',
    (name) =>
      CHECK_INPUT_NAMES.has(name) || name === 'custom_input'
        ? undefined
        : 'is not a check input (see GET /v1/bre/variables-spec)',
    40,
    1024,
    true,
  );
  return { type: String(type ?? ''), country: String(country ?? ''), inputs };
}

/**
 * Validates an action's configuration for its type and returns it normalized (defaults filled
 * in, unknown keys dropped), or the errors, each naming its field (`config.url`, …).
 */
export function normalizeActionConfig(type: ActionType, raw: unknown): { config: ActionConfig; errors: FieldError[] } {
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      config: {} as ActionConfig,
      errors: [{ field: 'config', message: `config must be an object with the ${type} configuration` }],
    };
  }
  const checker = new Checker(raw as Raw);
  const config =
    type === 'http_request' ? httpRequest(checker) : type === 'email' ? email(checker) : createCheck(checker);
  return { config, errors: checker.errors };
}

export const maxAttemptsOf = (type: ActionType, config: ActionConfig): number =>
  type === 'create_check' ? 10 : ((config as HttpRequestConfig | EmailConfig).max_attempts ?? DEFAULT_MAX_ATTEMPTS);
