import { AppException, FieldError } from '@kyc/platform';

/** Error codes of the console's own routes (sign-in, session, calls to the services). */
export enum ConsoleErrorCode {
  SignedOut = 'signed_out',
  CsrfRejected = 'csrf_rejected',
  WrongCode = 'wrong_code',
  CodeUnavailable = 'code_unavailable',
  CodesLimited = 'codes_limited',
  SignInLocked = 'sign_in_locked',
  NoAccount = 'no_account',
  UnknownService = 'unknown_service',
  ServiceUnreachable = 'service_unreachable',
}

const STATUS: Record<ConsoleErrorCode, number> = {
  [ConsoleErrorCode.SignedOut]: 401,
  [ConsoleErrorCode.CsrfRejected]: 403,
  [ConsoleErrorCode.WrongCode]: 400,
  [ConsoleErrorCode.CodeUnavailable]: 400,
  [ConsoleErrorCode.CodesLimited]: 429,
  [ConsoleErrorCode.SignInLocked]: 429,
  [ConsoleErrorCode.NoAccount]: 401,
  [ConsoleErrorCode.UnknownService]: 404,
  [ConsoleErrorCode.ServiceUnreachable]: 502,
};

export class ConsoleException extends AppException {
  constructor(code: ConsoleErrorCode, message: string, fields: FieldError[] = []) {
    super(STATUS[code], code, message, fields);
  }
}
