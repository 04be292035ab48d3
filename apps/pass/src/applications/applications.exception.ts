import { domainException } from '@kyc/platform';

export enum ApplicationErrorCode {
  ApplicationNotFound = 'application_not_found',
}

const STATUS: Record<ApplicationErrorCode, number> = {
  [ApplicationErrorCode.ApplicationNotFound]: 404,
};

export class ApplicationException extends domainException<ApplicationErrorCode>(STATUS) {}
