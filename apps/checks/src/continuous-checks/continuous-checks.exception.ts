import { domainException } from '@kyc/platform';

export enum ContinuousCheckErrorCode {
  ContinuousCheckNotFound = 'continuous_check_not_found',
  CheckNotFound = 'check_not_found',
}

const STATUS: Record<ContinuousCheckErrorCode, number> = {
  [ContinuousCheckErrorCode.ContinuousCheckNotFound]: 404,
  [ContinuousCheckErrorCode.CheckNotFound]: 404,
};

export class ContinuousCheckException extends domainException<ContinuousCheckErrorCode>(STATUS) {}
