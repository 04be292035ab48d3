import { domainException } from '@kyc/platform';

/** Errors of GET /v1/oauth2/userinfo (spec 3, "userinfo" table). */
export enum UserinfoErrorCode {
  InvalidToken = 'invalid_token',
  InsufficientScope = 'insufficient_scope',
  UserNotFound = 'user_not_found',
}

const STATUS: Record<UserinfoErrorCode, number> = {
  [UserinfoErrorCode.InvalidToken]: 401,
  [UserinfoErrorCode.InsufficientScope]: 401,
  [UserinfoErrorCode.UserNotFound]: 404,
};

export class UserinfoException extends domainException<UserinfoErrorCode>(STATUS) {}
