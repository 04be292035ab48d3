import { domainException } from '@kyc/platform';

export enum UserErrorCode {
  UserNotFound = 'user_not_found',
  UserAlreadyExists = 'user_already_exists',
  SelfModification = 'self_modification_not_allowed',
}

const STATUS: Record<UserErrorCode, number> = {
  [UserErrorCode.UserNotFound]: 404,
  [UserErrorCode.UserAlreadyExists]: 409,
  [UserErrorCode.SelfModification]: 409,
};

export class UserException extends domainException<UserErrorCode>(STATUS) {}
