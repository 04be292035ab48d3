import { ValidationRecord } from '@kyc/contracts';

import { ValidatorAccountEntity } from '../accounts/validator-account.entity';
import { EnrollmentEntity } from '../enrollments/enrollment.entity';
import { iso } from '../shared/ids';
import { ValidationEntity } from './validation.entity';

/** The person fields of a validation's events: its account's, the document number as read when it was. */
const personOf = (v: ValidationEntity, account?: ValidatorAccountEntity | null) => {
  const read = (v.outcome?.details as { document_details?: { document_number?: unknown } } | undefined)
    ?.document_details?.document_number;
  const person = {
    document_number: typeof read === 'string' && read ? read : account?.documentNumber,
    first_name: account?.firstName,
    last_name: account?.lastName,
    email: account?.email,
    phone_number: account?.phoneNumber,
  };
  return Object.fromEntries(Object.entries(person).filter(([, value]) => value)) as Partial<ValidationRecord>;
};

/** A failed document or face validation: the retries its settings still allow, and until when (retry_ttl). */
const retriesOf = (v: ValidationEntity): Pick<ValidationRecord, 'retries_left' | 'retry_until'> => {
  if (v.status !== 'failure' || (v.type !== 'document-validation' && v.type !== 'face-recognition')) return {};
  const left = Math.max(0, (v.settings.allowed_retries ?? 0) - v.retryNumber);
  if (!left || !v.finishedAt) return { retries_left: 0 };
  return {
    retries_left: left,
    retry_until: new Date(v.finishedAt.getTime() + (v.settings.retry_ttl ?? 300) * 1000).toISOString(),
  };
};

/**
 * The validation as other services see it (created and finished events); with its enrollment, an e-mail or
 * phone verification names the address or number its code was sent to.
 */
export const validationRecord = (
  v: ValidationEntity,
  account?: ValidatorAccountEntity | null,
  enrollment?: EnrollmentEntity | null,
): ValidationRecord => ({
  validation_id: v.id,
  tenant_id: v.tenantId,
  account_id: v.accountId,
  type: v.type,
  validation_status: v.status,
  ...(v.failureStatus ? { failure_status: v.failureStatus } : {}),
  ...(v.declinedReason ? { declined_reason: v.declinedReason } : {}),
  ...(v.expiredReason ? { expired_reason: v.expiredReason } : {}),
  ...(v.failureReason ? { failure_reason: v.failureReason } : {}),
  manual_review_status: v.manualReviewStatus,
  ...(v.customInput ? { custom_input: v.customInput } : {}),
  ...(v.country ? { country: v.country } : {}),
  ...(v.documentType ? { document_type: v.documentType } : {}),
  ...(v.processId ? { process_id: v.processId } : {}),
  ...(v.flowId ? { flow_id: v.flowId } : {}),
  ...(v.retryOfId ? { retry_of_id: v.retryOfId } : {}),
  ...retriesOf(v),
  ...personOf(v, account),
  ...(v.type === 'email-verification' && enrollment?.email ? { enrolled_email: enrollment.email } : {}),
  ...(v.type === 'phone-verification' && enrollment?.phoneNumber
    ? { enrolled_phone_number: enrollment.phoneNumber }
    : {}),
  creation_date: iso(v.createdAt)!,
  update_date: iso(v.updatedAt)!,
  ...(v.finishedAt ? { finished_date: iso(v.finishedAt) } : {}),
});

export interface PresentExtras {
  /** Upload links of the media still awaited (pending validations). */
  instructions?: Record<string, string>;
  /** show_details: media links valid 15 minutes. */
  media?: { slot: string; content_type: string | null; size: number | null; url: string; expires_at: string }[];
  showDetails?: boolean;
}

export function presentValidation(v: ValidationEntity, extras: PresentExtras = {}) {
  const otp = v.type === 'email-verification' || v.type === 'phone-verification';
  const face = v.type === 'face-recognition';
  return {
    validation_id: v.id,
    account_id: v.accountId,
    type: v.type,
    validation_status: v.status,
    failure_status: v.failureStatus ?? undefined,
    declined_reason: v.declinedReason ?? undefined,
    expired_reason: v.expiredReason ?? undefined,
    failure_reason: v.failureReason ?? undefined,
    manual_review_status: v.manualReviewStatus,
    custom_input: v.customInput ?? undefined,
    country: v.country ?? undefined,
    document_type: v.documentType ?? undefined,
    threshold: face ? v.settings.threshold : undefined,
    subvalidations: face ? (v.inputs.subvalidations as string[] | undefined) : undefined,
    timeout: v.settings.timeout,
    allowed_retries: v.settings.allowed_retries,
    attempts_left: otp ? (v.attemptsLeft ?? undefined) : undefined,
    retry_of_id: v.retryOfId ?? undefined,
    custom_type: (v.inputs.custom_type as string | undefined) ?? undefined,
    process_id: v.processId ?? undefined,
    flow_id: v.flowId ?? undefined,
    ip_address: v.ipAddress ?? undefined,
    expiration_date: iso(v.expiresAt),
    creation_date: iso(v.createdAt),
    update_date: iso(v.updatedAt),
    finished_date: iso(v.finishedAt),
    instructions: extras.instructions && Object.keys(extras.instructions).length ? extras.instructions : undefined,
    details: v.outcome
      ? { ...v.outcome.details, subvalidations: v.outcome.subvalidations.map(({ details: _d, ...s }) => s) }
      : undefined,
    ...(extras.showDetails ? { inputs: v.inputs, media: extras.media ?? [] } : {}),
  };
}
