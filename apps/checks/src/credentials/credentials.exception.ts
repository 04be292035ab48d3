import { domainException } from '@kyc/platform';

export enum CredentialErrorCode {
  UnknownDatabase = 'unknown_database',
  CredentialNotFound = 'credential_not_found',
}

const STATUS: Record<CredentialErrorCode, number> = {
  [CredentialErrorCode.UnknownDatabase]: 404,
  [CredentialErrorCode.CredentialNotFound]: 404,
};

export class CredentialException extends domainException<CredentialErrorCode>(STATUS) {}
