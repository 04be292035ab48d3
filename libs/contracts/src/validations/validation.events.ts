import type {
  DeclinedReason,
  EnrollmentType,
  ExpiredReason,
  FailureReason,
  FailureStatus,
  ManualReviewStatus,
  ValidationStatus,
  ValidationType,
} from './validation.enums';

export const VALIDATION_EVENT_TYPES = {
  validationCreated: 'validations.validation.created',
  validationFinished: 'validations.validation.finished',
  enrollmentFinished: 'validations.enrollment.finished',
} as const;

/** A validation as other services (identity, customers) see it: no images, no OTP material. */
export interface ValidationRecord {
  validation_id: string;
  tenant_id: string;
  account_id: string;
  type: ValidationType;
  validation_status: ValidationStatus;
  failure_status?: FailureStatus;
  declined_reason?: DeclinedReason;
  expired_reason?: ExpiredReason;
  failure_reason?: FailureReason;
  manual_review_status: ManualReviewStatus;
  custom_input?: string;
  country?: string;
  document_type?: string;
  /** Identity process and flow the validation belongs to, when created by a flow. */
  process_id?: string;
  flow_id?: string;
  retry_of_id?: string;
  /**
   * A failed document-validation or face-recognition: the retries of it its settings still allow
   * (allowed_retries less the retries before it; 0 when none), and until when a retry may be created
   * (finished_date + retry_ttl). A retry is a new validation with `retry_of_id` naming this one.
   */
  retries_left?: number;
  retry_until?: string;
  /**
   * The person the validation concerns, from its validation account (the document number as the
   * document engine read it when it did): customers resolves profiles by them.
   */
  document_number?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  phone_number?: string;
  /**
   * email-verification and phone-verification: the address or number of the enrollment the one-time code was
   * sent to (the account's `email` and `phone_number` above are what the tenant typed on the account).
   */
  enrolled_email?: string;
  enrolled_phone_number?: string;
  creation_date: string;
  update_date: string;
  finished_date?: string;
}

export interface ValidationCreatedPayload {
  validation: ValidationRecord;
}

export interface ValidationFinishedPayload {
  validation: ValidationRecord;
  /** Per-subvalidation outcomes (similarity, passive_liveness, mrz, data_consistency, ...). */
  subvalidations: { name: string; status: 'success' | 'failure' | 'skipped'; reason?: string }[];
}

export interface EnrollmentRecord {
  enrollment_id: string;
  tenant_id: string;
  account_id: string;
  type: EnrollmentType;
  status: ValidationStatus;
  reason?: string;
  /** The validation that confirmed the enrollment (absent for confirmation=none and face-search). */
  validation_id?: string;
  creation_date: string;
  update_date: string;
}

export interface EnrollmentFinishedPayload {
  enrollment: EnrollmentRecord;
}
