import { EnrollmentRecord } from '@kyc/contracts';

import { iso } from '../shared/ids';
import { EnrollmentEntity } from './enrollment.entity';

/** The enrollment as other services see it (enrollment.finished). */
export const enrollmentRecord = (e: EnrollmentEntity): EnrollmentRecord => ({
  enrollment_id: e.id,
  tenant_id: e.tenantId,
  account_id: e.accountId,
  type: e.type,
  status: e.status,
  ...(e.reason ? { reason: e.reason } : {}),
  ...(e.validationId ? { validation_id: e.validationId } : {}),
  creation_date: iso(e.createdAt)!,
  update_date: iso(e.updatedAt)!,
});

export function presentEnrollment(e: EnrollmentEntity, fileUploadLink?: string) {
  return {
    enrollment_id: e.id,
    account_id: e.accountId,
    type: e.type,
    validation_type: e.type,
    status: e.status,
    reason: e.reason ?? undefined,
    country: e.country ?? undefined,
    phone_number: e.phoneNumber ?? undefined,
    phone_type: e.phoneType ?? undefined,
    email: e.email ?? undefined,
    confirmation: e.confirmation ?? undefined,
    fraud_reason: e.fraudReason ?? undefined,
    face_enrolled: e.faceDescriptor
      ? true
      : e.type === 'face-recognition' || e.type === 'face-search'
        ? false
        : undefined,
    validation_id: e.validationId ?? undefined,
    file_upload_link: fileUploadLink,
    file_upload_expiration: fileUploadLink ? iso(e.uploadExpiresAt) : undefined,
    creation_date: iso(e.createdAt),
    update_date: iso(e.updatedAt),
    finished_date: iso(e.finishedAt),
  };
}
