import { api, ApiError, call } from '../api/client';
import type { Translate } from '../i18n/i18n';
import type { LogicVariable } from '../shared/logic/LogicEditor';

/** A rule as the account service answers it. */
export interface Rule {
  rule_id: string;
  name: string;
  event_type: string;
  condition: unknown;
  version: number;
  update_date: string;
  actions?: Action[];
}

export type ActionType = 'http_request' | 'email' | 'create_check';

export interface Action {
  action_id: string;
  name: string;
  type: string;
  status: string;
  config: Record<string, unknown>;
}

export const EVENT_TYPE = 'checks.check.finished';
export const ACTION_TYPES: ActionType[] = ['http_request', 'email', 'create_check'];

/** The fields of a check a rule usually compares with a fixed list of values. */
const OPTIONS: Record<string, string[]> = {
  country: ['ALL', 'BR', 'CO', 'CL', 'MX', 'PE', 'CR'],
  type: ['person', 'vehicle', 'company'],
  status: ['completed', 'error'],
  score_change: ['up', 'down', 'same'],
};

const TYPES: Record<string, LogicVariable['type']> = {
  string: 'string',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
  'date-time': 'date',
  array: 'array',
};

interface VariablesSpec {
  event_types: { event_type: string; variables: { name: string; type: string; description?: string }[] }[];
}

/** The variables the engine documents for `checks.check.finished` (GET /v1/bre/variables-spec), for the editor. */
export async function loadVariables(): Promise<LogicVariable[]> {
  const spec = (await call(api.account.GET('/v1/bre/variables-spec', {}))) as unknown as VariablesSpec;
  const event = spec.event_types.find((e) => e.event_type === EVENT_TYPE) ?? spec.event_types[0];
  return (event?.variables ?? []).map((v) => ({
    name: v.name,
    type: TYPES[v.type] ?? 'string',
    ...(OPTIONS[v.name] ? { options: OPTIONS[v.name] } : {}),
  }));
}

/** The first error of a field or of anything under it (`config.to` covers `config.to[0]`). */
export function fieldError(error: ApiError | undefined, name: string): string | undefined {
  return error?.fields.find((f) => f.field === name || f.field.startsWith(`${name}.`) || f.field.startsWith(`${name}[`))
    ?.message;
}

/** An action type in words (an unknown one as it is). */
export const typeLabel = (t: Translate, type: string): string =>
  (ACTION_TYPES as string[]).includes(type) ? t(`rules.type.${type as ActionType}`) : type;
