import type { ConfigurableValidator, DocumentSwitch, ValidationType } from '@kyc/contracts';
import { DOCUMENT_SWITCHES } from '@kyc/contracts';

/** document_config of one country: the versions accepted (absent: all) and switches per document type. */
export interface CountryDocumentConfig {
  document_version?: string[];
  types?: Record<string, Partial<Record<DocumentSwitch, 'enabled' | 'disabled'>>>;
}

/** Every setting of every validator, as stored and as in force (wire names). */
export interface ValidatorSettings {
  threshold?: number;
  timeout?: number;
  allowed_retries?: number;
  retry_ttl?: number;
  use_manual_review?: 'enabled' | 'disabled';
  include_face_search?: boolean;
  enrollment_timeout?: number;
  document_config?: Record<string, CountryDocumentConfig>;
  email_subject?: string;
  email_title?: string;
  email_text_1?: string;
  email_text_2?: string;
  support_email?: string;
  custom_name?: string;
}

/** The settings a validation runs with (a snapshot stored on it). */
export type EffectiveSettings = ValidatorSettings & { timeout: number };

export interface Bound {
  min: number;
  max: number;
}

/** Which fields each validator has, their defaults, and numeric bounds (spec: Validator configuration). */
export const VALIDATOR_FIELDS: Record<
  ConfigurableValidator,
  { defaults: ValidatorSettings; bounds: Partial<Record<keyof ValidatorSettings, Bound>> }
> = {
  'document-validation': {
    defaults: { timeout: 300, allowed_retries: 0, retry_ttl: 300, use_manual_review: 'disabled', document_config: {} },
    bounds: { timeout: { min: 1, max: 21600 }, allowed_retries: { min: 0, max: 3 }, retry_ttl: { min: 1, max: 1800 } },
  },
  'face-recognition': {
    defaults: {
      threshold: 0.65,
      timeout: 300,
      allowed_retries: 0,
      retry_ttl: 300,
      use_manual_review: 'disabled',
      include_face_search: false,
      enrollment_timeout: 300,
    },
    bounds: {
      threshold: { min: 0, max: 1 },
      timeout: { min: 1, max: 21600 },
      allowed_retries: { min: 0, max: 2 },
      retry_ttl: { min: 1, max: 300 },
      enrollment_timeout: { min: 1, max: 21600 },
    },
  },
  'email-verification': {
    defaults: {
      timeout: 300,
      allowed_retries: 2,
      email_subject: 'Your verification code',
      email_title: 'Verify your e-mail address',
      email_text_1: 'Use this code to verify your e-mail address:',
      email_text_2: 'If you did not ask for this code, ignore this message.',
      support_email: 'support@kyc.local',
    },
    bounds: { timeout: { min: 1, max: 600 }, allowed_retries: { min: 0, max: 4 } },
  },
  'phone-verification': {
    defaults: { timeout: 300, allowed_retries: 2, custom_name: 'KYC' },
    bounds: { timeout: { min: 1, max: 600 }, allowed_retries: { min: 0, max: 4 } },
  },
};

/** Config types DELETE /v1/config may reset, per validator (spec). */
export const RESETTABLE: Record<ConfigurableValidator, readonly (keyof ValidatorSettings)[]> = {
  'document-validation': ['timeout', 'allowed_retries', 'use_manual_review', 'document_config', 'retry_ttl'],
  'face-recognition': ['threshold', 'timeout', 'enrollment_timeout', 'use_manual_review', 'include_face_search'],
  'email-verification': [
    'timeout',
    'allowed_retries',
    'email_subject',
    'email_title',
    'email_text_1',
    'email_text_2',
    'support_email',
  ],
  'phone-verification': ['allowed_retries', 'timeout', 'custom_name'],
};

/** The configuration a validation type reads (face-search runs with face-recognition's). */
export const validatorOf = (type: ValidationType): ConfigurableValidator =>
  type === 'face-search' ? 'face-recognition' : type;

/** Timeout maxima per validation type (spec Limits). */
export const maxTimeout = (type: ValidationType) =>
  type === 'email-verification' || type === 'phone-verification' ? 600 : 21600;

/** Defaults overridden by the tenant's config, then by the flow's validator block. */
export function effectiveSettings(
  validator: ConfigurableValidator,
  tenant: ValidatorSettings | undefined,
  flow?: ValidatorSettings,
): EffectiveSettings {
  const merged = { ...VALIDATOR_FIELDS[validator].defaults, ...(tenant ?? {}), ...(flow ?? {}) };
  return merged as EffectiveSettings;
}

const DEFAULT_SWITCHES: Record<DocumentSwitch, 'enabled' | 'disabled'> = {
  manipulation_detection: 'enabled',
  photo_of_photo_detection: 'enabled',
  photocopy_detection: 'enabled',
  data_consistency: 'enabled',
  government_database: 'disabled',
};

/** The document checks in force for a country and document type (defaults where not configured). */
export function documentSwitches(
  settings: ValidatorSettings,
  country: string,
  documentType: string,
): Record<DocumentSwitch, 'enabled' | 'disabled'> {
  const configured = settings.document_config?.[country]?.types?.[documentType] ?? {};
  const out = { ...DEFAULT_SWITCHES };
  for (const s of DOCUMENT_SWITCHES) if (configured[s]) out[s] = configured[s];
  return out;
}

export const defaultDocumentSwitches = () => ({ ...DEFAULT_SWITCHES });
