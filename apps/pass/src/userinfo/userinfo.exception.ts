import { domainException } from '@kyc/platform';

/** Errors of /v1/oauth2/userinfo (spec 3, "userinfo" table; invalid_request: RFC 6750 2, one method only). */
export enum UserinfoErrorCode {
  InvalidRequest = 'invalid_request',
  InvalidToken = 'invalid_token',
  InsufficientScope = 'insufficient_scope',
  UserNotFound = 'user_not_found',
}

const STATUS: Record<UserinfoErrorCode, number> = {
  [UserinfoErrorCode.InvalidRequest]: 400,
  [UserinfoErrorCode.InvalidToken]: 401,
  [UserinfoErrorCode.InsufficientScope]: 401,
  [UserinfoErrorCode.UserNotFound]: 404,
};

export class UserinfoException extends domainException<UserinfoErrorCode>(STATUS) {}
