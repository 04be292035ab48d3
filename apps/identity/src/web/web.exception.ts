import { domainException } from '@kyc/platform';

export enum WebErrorCode {
  /** The current step waits for no file in this slot (no validation link yet, already uploaded, another step). */
  UploadNotExpected = 'upload_not_expected',
  /** The validations service found no image in the file (not Base64). */
  InvalidFile = 'invalid_file',
  FileTooLarge = 'file_too_large',
  UnsupportedFileType = 'unsupported_file_type',
  /** The validation's upload link expired (its timeout). */
  UploadExpired = 'upload_expired',
}

const STATUS: Record<WebErrorCode, number> = {
  [WebErrorCode.UploadNotExpected]: 409,
  [WebErrorCode.InvalidFile]: 400,
  [WebErrorCode.FileTooLarge]: 413,
  [WebErrorCode.UnsupportedFileType]: 415,
  [WebErrorCode.UploadExpired]: 409,
};

export class WebException extends domainException<WebErrorCode>(STATUS) {}

/** How a refusal of the validations service's upload link reads to the page's caller. */
export function uploadRefusal(status: number, message: string): WebException {
  const field = [{ field: 'file', message }];
  if (status === 413) return new WebException(WebErrorCode.FileTooLarge, message, field);
  if (status === 415) return new WebException(WebErrorCode.UnsupportedFileType, message, field);
  if (status === 409) return new WebException(WebErrorCode.UploadNotExpected, message, field);
  if (status === 403) return new WebException(WebErrorCode.UploadExpired, message, field);
  return new WebException(WebErrorCode.InvalidFile, message, field);
}
