import { domainException } from '@kyc/platform';

export enum ExportErrorCode {
  ExportNotFound = 'export_not_found',
  InvalidLink = 'invalid_link',
  ExportNotReady = 'export_not_ready',
}

const STATUS: Record<ExportErrorCode, number> = {
  [ExportErrorCode.ExportNotFound]: 404,
  [ExportErrorCode.InvalidLink]: 403,
  [ExportErrorCode.ExportNotReady]: 409,
};

export class ExportException extends domainException<ExportErrorCode>(STATUS) {}
