import { domainException } from '@kyc/platform';

/** Error codes of validations. */
export enum ValidationErrorCode {
  ValidationNotFound = 'validation_not_found',
  ValidationNotPending = 'validation_not_pending',
  ValidationNotDeleted = 'validation_not_deleted',
  WrongValidationType = 'wrong_validation_type',
  RetryNotAllowed = 'retry_not_allowed',
  EnrollmentRequired = 'enrollment_required',
  OnRequestNotAuthorized = 'available_on_request',
  /** The account made too many wrong guesses of its codes: locked out for a while. */
  TooManyAttempts = 'too_many_attempts',
  /** Too many codes were sent to the address (or asked for from the client address) this hour. */
  TooManyCodes = 'too_many_codes',
}

const STATUS: Record<ValidationErrorCode, number> = {
  [ValidationErrorCode.ValidationNotFound]: 404,
  [ValidationErrorCode.ValidationNotPending]: 409,
  [ValidationErrorCode.ValidationNotDeleted]: 409,
  [ValidationErrorCode.WrongValidationType]: 400,
  [ValidationErrorCode.RetryNotAllowed]: 400,
  [ValidationErrorCode.EnrollmentRequired]: 400,
  [ValidationErrorCode.OnRequestNotAuthorized]: 403,
  [ValidationErrorCode.TooManyAttempts]: 429,
  [ValidationErrorCode.TooManyCodes]: 429,
};

export class ValidationException extends domainException<ValidationErrorCode>(STATUS) {}
