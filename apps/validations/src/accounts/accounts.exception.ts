import { domainException } from '@kyc/platform';

/** Error codes of accounts of the validators suite. */
export enum AccountErrorCode {
  AccountNotFound = 'account_not_found',
  AccountExists = 'account_already_exists',
}

const STATUS: Record<AccountErrorCode, number> = {
  [AccountErrorCode.AccountNotFound]: 404,
  [AccountErrorCode.AccountExists]: 409,
};

export class AccountException extends domainException<AccountErrorCode>(STATUS) {}
