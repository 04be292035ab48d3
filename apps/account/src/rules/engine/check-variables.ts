import type { CheckFinishedPayload, EventEnvelope } from '@kyc/contracts';

export interface VariableSpec {
  name: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'date-time';
  description: string;
}

/** The wire-named inputs a check may carry (each is a string variable when the check has it). */
export const CHECK_INPUT_VARIABLES: readonly [string, string][] = [
  ['first_name', 'First name of the person'],
  ['last_name', 'Last name of the person or entity'],
  ['date_of_birth', 'Birthdate, YYYY-MM-DD'],
  ['issue_date', 'Document issue date, YYYY-MM-DD'],
  ['national_id', 'National ID number'],
  ['document_type', 'ID document type (national-id, foreign-id, tax-id, passport)'],
  ['gender', 'Gender as given'],
  ['native_country', 'Country of birth'],
  ['native_national_id', 'National ID in the native country'],
  ['foreign_id', 'Foreign ID'],
  ['passport', 'Passport number'],
  ['driver_license', "Driver's license"],
  ['professional_card', 'Professional ID card'],
  ['diplomatic_id', 'Diplomatic ID'],
  ['birth_certificate', 'Birth certificate'],
  ['ptp', 'ID of Venezuelans working in Peru'],
  ['pep', 'ID of Venezuelans working in Colombia (also PPT)'],
  ['document_number', 'Chilean identity document number'],
  ['folio', 'Chilean certificate folio'],
  ['verification_code', 'Criminal-record verification code (Peru, Chile)'],
  ['escrow', 'Colombian escrow'],
  ['license_plate', 'Vehicle license plate'],
  ['vehicle_id', 'Vehicle NIV number'],
  ['owner_document_id', 'Vehicle owner ID'],
  ['owner_document_type', 'Vehicle owner ID type'],
  ['payment_date', 'Circulation-permit payment day (Chile)'],
  ['imei', '15-digit IMEI'],
  ['company_name', 'Company name'],
  ['tax_id', 'Company tax ID'],
  ['phone_number', 'Phone number of the person'],
  ['state_id', 'Registry identification (RG in Brazil)'],
  ['region', 'Region (Brazil)'],
];

export const CHECK_INPUT_NAMES: ReadonlySet<string> = new Set(CHECK_INPUT_VARIABLES.map(([name]) => name));

/** What rule conditions and action templates can use for `checks.check.finished` (GET /v1/bre/variables-spec). */
export const CHECK_FINISHED_VARIABLES: readonly VariableSpec[] = [
  { name: 'event_id', type: 'string', description: 'Id of the event that fired the rule (stable across redeliveries)' },
  { name: 'event_type', type: 'string', description: 'checks.check.finished' },
  { name: 'check_id', type: 'string', description: 'Id of the check that finished' },
  { name: 'tenant_id', type: 'string', description: 'Tenant of the check' },
  { name: 'country', type: 'string', description: 'Document country: ALL, BR, CO, CL, MX, PE, CR' },
  { name: 'type', type: 'string', description: 'Check type: person, vehicle, company or a custom type name' },
  { name: 'status', type: 'string', description: 'Check status: completed, error, delayed, …' },
  { name: 'score', type: 'number', description: 'Global score, 0 (high risk) to 1 (low risk)' },
  { name: 'id_score', type: 'number', description: 'Score from results validated with an identity document, 0 to 1' },
  { name: 'homonym_score', type: 'number', description: 'Score from results validated by name only, 0 to 1' },
  {
    name: 'custom_input',
    type: 'string',
    description: 'External identifier given when the check was created (null when none)',
  },
  { name: 'creation_date', type: 'date-time', description: 'When the check was created (ISO 8601)' },
  {
    name: 'update_date',
    type: 'date-time',
    description: 'When the check last changed, here when it finished (ISO 8601)',
  },
  {
    name: 'rule_depth',
    type: 'integer',
    description:
      '0 for a check a client created; n+1 for a check a create_check action created from a check of depth n',
  },
  {
    name: 'continuous_check_id',
    type: 'string',
    description: 'The continuous check this run belongs to (null otherwise)',
  },
  {
    name: 'score_change',
    type: 'string',
    description: 'Continuous checks: up, down or same compared with the previous run (null otherwise)',
  },
  ...CHECK_INPUT_VARIABLES.map(([name, description]): VariableSpec => ({
    name,
    type: 'string',
    description: `Check input: ${description} (absent when not given)`,
  })),
];

/** The variables of a `checks.check.finished` event: check fields first, then its inputs (flat). */
export function checkVariables(event: EventEnvelope<CheckFinishedPayload>): Record<string, unknown> {
  const check = event.payload.check;
  const vars: Record<string, unknown> = {
    event_id: event.id,
    event_type: event.type,
    check_id: check.check_id,
    tenant_id: check.tenant_id ?? event.tenant_id,
    country: check.country,
    type: check.type,
    status: check.status,
    score: check.score,
    id_score: check.id_score,
    homonym_score: check.homonym_score,
    custom_input: check.custom_input ?? null,
    creation_date: check.creation_date,
    update_date: check.update_date,
    rule_depth: Number.isInteger(check.rule_depth) ? check.rule_depth : 0,
    continuous_check_id: event.payload.continuous_check_id ?? null,
    score_change: event.payload.score_change ?? null,
  };
  for (const [name, value] of Object.entries(check.inputs ?? {})) if (!(name in vars)) vars[name] = value;
  return vars;
}
