import { FieldError } from '@kyc/platform';

import { CHECK_INPUT_FIELDS } from '../checks/dto/create-check.dto';

const COMMON = ['user_authorized', 'custom_input'] as const;
const PERSON = [
  'national_id',
  'document_type',
  'first_name',
  'last_name',
  'date_of_birth',
  'issue_date',
  'gender',
  'native_country',
  'native_national_id',
  'foreign_id',
  'passport',
  'driver_license',
  'professional_card',
  'diplomatic_id',
  'birth_certificate',
  'ptp',
  'pep',
  'document_number',
  'folio',
  'verification_code',
  'escrow',
  'phone_number',
  'state_id',
  'region',
];
const VEHICLE = ['license_plate', 'vehicle_id', 'owner_document_id', 'owner_document_type', 'payment_date', 'imei'];
const COMPANY = ['tax_id', 'company_name'];

/**
 * The inputs a batch of a type accepts, in the documented order used when no columns_mapping is
 * given (column A first): user_authorized, custom_input, then the type's inputs, then report_id.
 * A custom type accepts every check input. `watch` is not a column: a batch's frequency sets it.
 */
export function batchInputs(type: string): string[] {
  const own =
    type === 'person'
      ? PERSON
      : type === 'vehicle'
        ? VEHICLE
        : type === 'company'
          ? COMPANY
          : [...PERSON, ...VEHICLE, ...COMPANY];
  return [...COMMON, ...own, 'report_id'];
}

// Every name above is a create-check input (or a control flag create accepts).
const KNOWN = new Set<string>([...CHECK_INPUT_FIELDS, ...COMMON, 'report_id']);
for (const name of batchInputs('custom'))
  if (!KNOWN.has(name)) throw new Error(`batch input ${name} is not a check input`);

/** Largest column index of an xlsx sheet (XFD). */
export const MAX_COLUMN_INDEX = 16_383;

/**
 * `columns_mapping.<input>` = zero-based column index, from form fields (flat keys) or a JSON object.
 * Returns the columns (input name per index, null for ignored columns), or the offending fields.
 */
export function columnsFromMapping(
  body: Record<string, unknown>,
  type: string,
): { columns: (string | null)[]; errors: FieldError[] } {
  const accepted = batchInputs(type);
  const mapping: Record<string, unknown> = {};
  const nested = body.columns_mapping;
  if (nested !== undefined && (typeof nested !== 'object' || nested === null || Array.isArray(nested))) {
    return {
      columns: [],
      errors: [
        {
          field: 'columns_mapping',
          message: 'columns_mapping must map input names to column indexes (columns_mapping.<input>=<index>)',
        },
      ],
    };
  }
  Object.assign(mapping, nested ?? {});
  for (const [key, value] of Object.entries(body))
    if (key.startsWith('columns_mapping.')) mapping[key.slice('columns_mapping.'.length)] = value;
  if (!Object.keys(mapping).length) return { columns: accepted, errors: [] };

  const errors: FieldError[] = [];
  const byIndex = new Map<number, string>();
  for (const [input, raw] of Object.entries(mapping)) {
    const field = `columns_mapping.${input}`;
    if (!accepted.includes(input)) {
      errors.push({ field, message: `${input} is not an input of ${type} checks; accepted: ${accepted.join(', ')}` });
      continue;
    }
    const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
    if (!/^\d+$/.test(text) || Number(text) > MAX_COLUMN_INDEX) {
      errors.push({
        field,
        message: `${field} must be a zero-based column index from 0 to ${MAX_COLUMN_INDEX} (0 is column A)`,
      });
      continue;
    }
    const index = Number(text);
    const taken = byIndex.get(index);
    if (taken) {
      errors.push({ field, message: `column ${index} is already mapped to ${taken}` });
      continue;
    }
    byIndex.set(index, input);
  }
  if (errors.length) return { columns: [], errors };
  const columns: (string | null)[] = Array.from(
    { length: Math.max(...byIndex.keys()) + 1 },
    (_, i) => byIndex.get(i) ?? null,
  );
  return { columns, errors };
}
