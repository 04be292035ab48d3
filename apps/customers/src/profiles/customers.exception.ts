import { domainException } from '@kyc/platform';

export enum CustomerErrorCode {
  CustomerNotFound = 'customer_not_found',
  TransactionNotFound = 'transaction_not_found',
  MultipleMatches = 'multiple_matches',
  QueryNotSupported = 'query_not_supported',
}

const STATUS: Record<CustomerErrorCode, number> = {
  [CustomerErrorCode.CustomerNotFound]: 404,
  [CustomerErrorCode.TransactionNotFound]: 404,
  [CustomerErrorCode.MultipleMatches]: 409,
  [CustomerErrorCode.QueryNotSupported]: 400,
};

export class CustomerException extends domainException<CustomerErrorCode>(STATUS) {}
