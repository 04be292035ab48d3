import { domainException } from '@kyc/platform';

export enum BatchErrorCode {
  BatchNotFound = 'batch_not_found',
  InvalidUploadLink = 'invalid_upload_link',
  UploadLinkExpired = 'upload_link_expired',
  UploadLinkSpent = 'upload_link_spent',
  FileAlreadyUploaded = 'file_already_uploaded',
  InvalidFile = 'invalid_batch_file',
  FileTooLarge = 'batch_file_too_large',
  FileNotUploaded = 'batch_file_not_uploaded',
  BatchNotStartable = 'batch_not_startable',
  BatchFinished = 'batch_finished',
  ReportNotRequested = 'batch_report_not_requested',
}

const STATUS: Record<BatchErrorCode, number> = {
  [BatchErrorCode.BatchNotFound]: 404,
  [BatchErrorCode.InvalidUploadLink]: 401,
  [BatchErrorCode.UploadLinkExpired]: 403,
  [BatchErrorCode.UploadLinkSpent]: 403,
  [BatchErrorCode.FileAlreadyUploaded]: 409,
  [BatchErrorCode.InvalidFile]: 400,
  [BatchErrorCode.FileTooLarge]: 413,
  [BatchErrorCode.FileNotUploaded]: 409,
  [BatchErrorCode.BatchNotStartable]: 409,
  [BatchErrorCode.BatchFinished]: 409,
  [BatchErrorCode.ReportNotRequested]: 409, // the batch is there; its report is not requested yet
};

export class BatchException extends domainException<BatchErrorCode>(STATUS) {}
