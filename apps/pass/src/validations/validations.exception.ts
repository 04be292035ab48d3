import { domainException } from '@kyc/platform';

/** Error codes of POST /v1/oauth2/validations (an application writing its own validations of a person). */
export enum ValidationErrorCode {
  InvalidToken = 'invalid_token',
  InsufficientScope = 'insufficient_scope',
  ClientNotAllowed = 'client_not_allowed',
}

const STATUS: Record<ValidationErrorCode, number> = {
  [ValidationErrorCode.InvalidToken]: 401,
  [ValidationErrorCode.InsufficientScope]: 403,
  [ValidationErrorCode.ClientNotAllowed]: 403,
};

export class ValidationException extends domainException<ValidationErrorCode>(STATUS) {}
