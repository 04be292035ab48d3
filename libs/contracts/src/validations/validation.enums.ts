/** Validators suite (spec 3): the values its inputs, states and reasons take. */

export const VALIDATION_TYPES = [
  'document-validation',
  'face-recognition',
  'email-verification',
  'phone-verification',
  'face-search',
] as const;
export type ValidationType = (typeof VALIDATION_TYPES)[number];

export const ENROLLMENT_TYPES = [
  'face-recognition',
  'email-verification',
  'phone-verification',
  'face-search',
] as const;
export type EnrollmentType = (typeof ENROLLMENT_TYPES)[number];

/** Validators with a configuration (PUT /v1/config). */
export const CONFIGURABLE_VALIDATORS = [
  'face-recognition',
  'email-verification',
  'phone-verification',
  'document-validation',
] as const;
export type ConfigurableValidator = (typeof CONFIGURABLE_VALIDATORS)[number];

export const VALIDATION_STATUSES = ['pending', 'success', 'failure'] as const;
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];

/** How a failed validation failed: the user or the data did not pass, it ran out of time, or the system failed. */
export const FAILURE_STATUSES = ['declined', 'expired', 'system_error'] as const;
export type FailureStatus = (typeof FAILURE_STATUSES)[number];

/** declined_reason: the validation ran and the user or the document did not pass. */
export const DECLINED_REASONS = [
  // document-validation (engine)
  'mrz_not_found',
  'invalid_mrz_check_digit',
  'invalid_document_number',
  'data_mismatch',
  'document_expired',
  'government_database_mismatch',
  'manipulated_document',
  'photo_of_photo',
  'photocopy',
  'unreadable_document',
  // face-recognition / face-search
  'face_not_detected',
  'no_enrolled_face',
  'similarity_threshold_not_passed',
  'passive_liveness_failed',
  'speech_not_matched',
  'face_found_in_blocklist',
  // email / phone verification
  'max_retries_exceeded',
  // manual review
  'declined_by_manual_review',
] as const;
export type DeclinedReason = (typeof DECLINED_REASONS)[number];

/** expired_reason: the validation was still pending when its timeout came. */
export const EXPIRED_REASONS = ['media_not_uploaded', 'token_not_submitted', 'manual_review_not_finished'] as const;
export type ExpiredReason = (typeof EXPIRED_REASONS)[number];

/** failure_reason: the platform could not complete the validation. */
export const FAILURE_REASONS = ['invalid_media', 'engine_error', 'otp_delivery_failed'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export const MANUAL_REVIEW_STATUSES = ['not_required', 'pending', 'approved', 'declined', 'unavailable'] as const;
export type ManualReviewStatus = (typeof MANUAL_REVIEW_STATUSES)[number];

export const PHONE_TYPES = ['home', 'office', 'recover'] as const;
export type PhoneType = (typeof PHONE_TYPES)[number];

export const VERIFY_CHANNELS = ['sms', 'call', 'msgapp'] as const;
export type VerifyChannel = (typeof VERIFY_CHANNELS)[number];

export const FACE_SUBVALIDATIONS = ['passive_liveness', 'similarity', 'speech_match'] as const;
export type FaceSubvalidation = (typeof FACE_SUBVALIDATIONS)[number];

export const SPEECH_PRECISIONS = ['very_high', 'high', 'medium', 'low'] as const;

export const BLOCK_REASONS = [
  'manipulated_document',
  'manipulated_photo',
  'non_payment',
  'criminal_records_in_company',
  'fraudster',
] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

export const VALIDATOR_ACCOUNT_DOCUMENT_TYPES = ['national-id', 'identity-card', 'foreign-id', 'passport'] as const;

export const DOCUMENT_TYPES = [
  'national-id',
  'foreign-id',
  'driver-license',
  'passport',
  'identity-card',
  'rut',
  'ppt',
  'invoice',
  'picture-id',
  'record',
  'cnh',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_COUNTRIES = ['CO', 'CL', 'MX', 'PE', 'BR', 'CR', 'SV', 'ALL'] as const;
export const DOCUMENT_CONFIG_COUNTRIES = ['CO', 'CL', 'MX', 'PE', 'BR', 'SV', 'ALL'] as const;
export const FACE_SEARCH_COUNTRIES = ['ALL', 'BR', 'CL', 'CO', 'CR', 'EC', 'MX', 'PE'] as const;
export const PHONE_COUNTRIES = ['CO', 'CL', 'MX', 'BR', 'VE', 'PE', 'EC', 'AR', 'US'] as const;

export const DOCUMENT_VERSIONS = [
  'mx_ine-c',
  'mx_ine-d',
  'mx_ine-e',
  'mx_ife-f',
  'mx_ife-g',
  'mx_fm3',
  'co_national-id-2000',
  'co_national-id-2020',
  'co_foreign-id',
  'co_ppt',
  'passport',
] as const;
export type DocumentVersion = (typeof DOCUMENT_VERSIONS)[number];

/** The document_config switches (enabled or disabled). */
export const DOCUMENT_SWITCHES = [
  'manipulation_detection',
  'photo_of_photo_detection',
  'photocopy_detection',
  'data_consistency',
  'government_database',
] as const;
export type DocumentSwitch = (typeof DOCUMENT_SWITCHES)[number];
