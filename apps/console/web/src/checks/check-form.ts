import type { MessageKey } from '../i18n/en';

export const COUNTRIES = ['CO', 'BR', 'CL', 'MX', 'PE', 'CR', 'ALL'] as const;
export const TYPES = ['person', 'vehicle', 'company'] as const;
export type CheckType = (typeof TYPES)[number];

export interface FieldSpec {
  name: string;
  label: MessageKey;
  options?: string[];
  required?: boolean;
  placeholder?: string;
}

const f = (name: string, extra: Partial<FieldSpec> = {}): FieldSpec => ({
  name,
  label: `checks.field.${name}` as MessageKey,
  ...extra,
});
const DOCUMENT_TYPES = ['national-id', 'foreign-id', 'tax-id', 'passport'];
const BR_REGIONS = 'ALL DF AC AL AP AM BA CE ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO'.split(' ');

/**
 * The inputs of a check of a country and type (spec 1's input rules): the ones the API needs for
 * a complete check there first. The API decides what is valid; its answer is shown under each field.
 */
export function fieldsFor(country: string, type: CheckType): FieldSpec[] {
  switch (type) {
    case 'vehicle':
      return [
        f('license_plate', { required: true }),
        ...(country === 'MX' ? [f('vehicle_id')] : []),
        f('owner_document_id'),
        f('owner_document_type', { options: DOCUMENT_TYPES }),
        ...(country === 'CL' ? [f('payment_date', { placeholder: 'YYYY-MM-DD' })] : []),
      ];
    case 'company':
      return [f('tax_id'), f('company_name', { required: country === 'BR' })];
    default:
      return [
        f('document_type', { options: DOCUMENT_TYPES }),
        f('national_id'),
        f('first_name', { required: country === 'BR' || country === 'MX' }),
        f('last_name', { required: country === 'BR' || country === 'MX' }),
        f('date_of_birth', { placeholder: 'YYYY-MM-DD', required: ['BR', 'PE', 'MX'].includes(country) }),
        ...(country === 'BR' ? [f('state_id', { required: true }), f('region', { options: BR_REGIONS })] : []),
        ...(country === 'MX' ? [f('gender', { options: ['female', 'male'] }), f('state_id')] : []),
        ...(country === 'CL' ? [f('document_number'), f('verification_code')] : []),
        ...(country === 'PE' ? [f('verification_code')] : []),
        f('phone_number', { placeholder: '+57…' }),
      ];
  }
}
