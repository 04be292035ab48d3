import { AppException, FieldError } from '@kyc/platform';

export enum CredentialErrorCode {
  UnknownDatabase = 'unknown_database',
  CredentialNotFound = 'credential_not_found',
}

const STATUS: Record<CredentialErrorCode, number> = {
  [CredentialErrorCode.UnknownDatabase]: 404,
  [CredentialErrorCode.CredentialNotFound]: 404,
};

export class CredentialException extends AppException {
  constructor(code: CredentialErrorCode, message: string, fields: FieldError[] = []) {
    super(STATUS[code], code, message, fields);
  }
}
