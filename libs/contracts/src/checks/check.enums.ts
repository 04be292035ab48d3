export const CHECK_COUNTRIES = ['ALL', 'BR', 'CO', 'CL', 'MX', 'PE', 'CR'] as const;
export type CheckCountry = (typeof CHECK_COUNTRIES)[number];

export const BUILT_IN_CHECK_TYPES = ['person', 'vehicle', 'company'] as const;

export const CHECK_STATUSES = ['not_started', 'in_progress', 'completed', 'error', 'delayed'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

export const ID_DOCUMENT_TYPES = ['national-id', 'foreign-id', 'tax-id', 'passport'] as const;
export const GENDERS = ['male', 'masculino', 'hombre', 'h', 'female', 'femenino', 'mujer', 'm'] as const;
export const NATIVE_COUNTRIES = ['CO', 'MX', 'PE', 'BR', 'EC', 'CL', 'VE'] as const;
export const BRAZIL_REGIONS = [
  'DF',
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
  'ALL',
] as const;

/** Countries a custom type can be defined for (ALL: types that search by name in international databases). */
export const CUSTOM_TYPE_COUNTRIES = ['ALL', 'BR', 'CL', 'CO', 'MX', 'PE'] as const;
export type CustomTypeCountry = (typeof CUSTOM_TYPE_COUNTRIES)[number];

export type BuiltInCheckType = (typeof BUILT_IN_CHECK_TYPES)[number];

/**
 * Datasets a database feeds and a score weighs: the 13 weighted datasets of the spec, each in the
 * published Score/Status enums (custom type weights are `dataset_<name>`).
 */
export const DATA_SETS = [
  'affiliations_and_insurances',
  'alert_in_media',
  'business_background',
  'criminal_record',
  'driving_licenses',
  'international_background',
  'legal_background',
  'personal_identity',
  'professional_background',
  'taxes_and_finances',
  'traffic_fines',
  'vehicle_information',
  'vehicle_permits',
] as const;
export type DataSet = (typeof DATA_SETS)[number];

/** Risk found in a dataset, from no information (unknown) to the highest risk. */
export const SEVERITIES = ['unknown', 'none', 'very_low', 'low', 'medium', 'high', 'very_high'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Result of a dataset score (overall, by ID, by name). */
export const SCORE_RESULTS = ['pending', 'found', 'not_found', 'error', 'delayed', 'ignored'] as const;
export type ScoreResult = (typeof SCORE_RESULTS)[number];

/** Status of one database of a check. */
export const DATABASE_STATUSES = ['not_started', 'completed', 'expired', 'error', 'delayed', 'skipped'] as const;
export type DatabaseStatus = (typeof DATABASE_STATUSES)[number];

/** Settings: whether name-only criminal, legal and international records need an identical name (exact) or a similar one (soft). */
export const NAMES_MATCHING_TYPES = ['soft', 'exact'] as const;
export type NamesMatchingType = (typeof NAMES_MATCHING_TYPES)[number];

/** Languages of check details (lowercase ISO 639-1). */
export const DETAIL_LANGUAGES = ['es', 'en', 'pt'] as const;
export type DetailLanguage = (typeof DETAIL_LANGUAGES)[number];
