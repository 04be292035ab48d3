export const CHECK_COUNTRIES = ['ALL', 'BR', 'CO', 'CL', 'MX', 'PE', 'CR'] as const;
export type CheckCountry = (typeof CHECK_COUNTRIES)[number];

export const BUILT_IN_CHECK_TYPES = ['person', 'vehicle', 'company'] as const;

export const CHECK_STATUSES = ['not_started', 'in_progress', 'completed', 'error', 'delayed'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

export const ID_DOCUMENT_TYPES = ['national-id', 'foreign-id', 'tax-id', 'passport'] as const;
export const GENDERS = ['male', 'masculino', 'hombre', 'h', 'female', 'femenino', 'mujer', 'm'] as const;
export const NATIVE_COUNTRIES = ['CO', 'MX', 'PE', 'BR', 'EC', 'CL', 'VE'] as const;
export const BRAZIL_REGIONS = [
  'DF', 'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR',
  'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO', 'ALL',
] as const;
