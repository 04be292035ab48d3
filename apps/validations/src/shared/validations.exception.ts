import { domainException } from '@kyc/platform';

/** Error codes of the validators suite (one enum: the resources share most rules). */
export enum ValidationsErrorCode {
  AccountNotFound = 'account_not_found',
  AccountExists = 'account_already_exists',
  EnrollmentNotFound = 'enrollment_not_found',
  EnrollmentRequired = 'enrollment_required',
  PhoneTypeEnrolled = 'phone_type_already_enrolled',
  TooManyPhones = 'too_many_phone_numbers',
  ConfirmationNotAuthorized = 'confirmation_none_not_authorized',
  ValidationNotFound = 'validation_not_found',
  ValidationNotPending = 'validation_not_pending',
  ValidationNotDeleted = 'validation_not_deleted',
  WrongValidationType = 'wrong_validation_type',
  RetryNotAllowed = 'retry_not_allowed',
  InvalidUploadLink = 'invalid_upload_link',
  UploadLinkExpired = 'upload_link_expired',
  MediaAlreadyUploaded = 'media_already_uploaded',
  MediaTooLarge = 'media_too_large',
  UnsupportedMedia = 'unsupported_media_type',
  ImageTooLarge = 'image_too_large',
  InvalidBase64 = 'invalid_base64',
  MediaNotFound = 'media_not_found',
  FaceManualReviewNotActivated = 'face_manual_review_not_activated',
  ReviewNotPending = 'review_not_pending',
  CustomTypeNotFound = 'custom_type_not_found',
  OnRequestNotAuthorized = 'available_on_request',
  /** The account made too many wrong guesses of its codes: locked out for a while. */
  TooManyAttempts = 'too_many_attempts',
  /** Too many codes were sent to the address (or asked for from the client address) this hour. */
  TooManyCodes = 'too_many_codes',
}

const STATUS: Record<ValidationsErrorCode, number> = {
  [ValidationsErrorCode.AccountNotFound]: 404,
  [ValidationsErrorCode.AccountExists]: 409,
  [ValidationsErrorCode.EnrollmentNotFound]: 404,
  [ValidationsErrorCode.EnrollmentRequired]: 400,
  [ValidationsErrorCode.PhoneTypeEnrolled]: 409,
  [ValidationsErrorCode.TooManyPhones]: 409,
  [ValidationsErrorCode.ConfirmationNotAuthorized]: 403,
  [ValidationsErrorCode.ValidationNotFound]: 404,
  [ValidationsErrorCode.ValidationNotPending]: 409,
  [ValidationsErrorCode.ValidationNotDeleted]: 409,
  [ValidationsErrorCode.WrongValidationType]: 400,
  [ValidationsErrorCode.RetryNotAllowed]: 400,
  [ValidationsErrorCode.InvalidUploadLink]: 403,
  [ValidationsErrorCode.UploadLinkExpired]: 403,
  [ValidationsErrorCode.MediaAlreadyUploaded]: 409,
  [ValidationsErrorCode.MediaTooLarge]: 413,
  [ValidationsErrorCode.UnsupportedMedia]: 415,
  [ValidationsErrorCode.ImageTooLarge]: 400,
  [ValidationsErrorCode.InvalidBase64]: 400,
  [ValidationsErrorCode.MediaNotFound]: 404,
  [ValidationsErrorCode.FaceManualReviewNotActivated]: 403,
  [ValidationsErrorCode.ReviewNotPending]: 409,
  [ValidationsErrorCode.CustomTypeNotFound]: 400,
  [ValidationsErrorCode.OnRequestNotAuthorized]: 403,
  [ValidationsErrorCode.TooManyAttempts]: 429,
  [ValidationsErrorCode.TooManyCodes]: 429,
};

export class ValidationsException extends domainException<ValidationsErrorCode>(STATUS) {}
