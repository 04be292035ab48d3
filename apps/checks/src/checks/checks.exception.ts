import { domainException } from '@kyc/platform';

export enum CheckErrorCode {
  CheckNotFound = 'check_not_found',
  UserNotAuthorized = 'user_not_authorized',
  UnknownCheckType = 'unknown_check_type',
}

const STATUS: Record<CheckErrorCode, number> = {
  [CheckErrorCode.CheckNotFound]: 404,
  [CheckErrorCode.UserNotAuthorized]: 400,
  [CheckErrorCode.UnknownCheckType]: 400,
};

export class CheckException extends domainException<CheckErrorCode>(STATUS) {}
