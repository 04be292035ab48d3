import { domainException } from '@kyc/platform';

export enum ApplicationErrorCode {
  ApplicationNotFound = 'application_not_found',
  PublicClient = 'public_client',
}

const STATUS: Record<ApplicationErrorCode, number> = {
  [ApplicationErrorCode.ApplicationNotFound]: 404,
  [ApplicationErrorCode.PublicClient]: 409,
};

export class ApplicationException extends domainException<ApplicationErrorCode>(STATUS) {}
