import { domainException } from '@kyc/platform';

/** Error codes of enrollments. */
export enum EnrollmentErrorCode {
  EnrollmentNotFound = 'enrollment_not_found',
  PhoneTypeEnrolled = 'phone_type_already_enrolled',
  TooManyPhones = 'too_many_phone_numbers',
  ConfirmationNotAuthorized = 'confirmation_none_not_authorized',
}

const STATUS: Record<EnrollmentErrorCode, number> = {
  [EnrollmentErrorCode.EnrollmentNotFound]: 404,
  [EnrollmentErrorCode.PhoneTypeEnrolled]: 409,
  [EnrollmentErrorCode.TooManyPhones]: 409,
  [EnrollmentErrorCode.ConfirmationNotAuthorized]: 403,
};

export class EnrollmentException extends domainException<EnrollmentErrorCode>(STATUS) {}
