import { domainException } from '@kyc/platform';

/** Error codes of CIBA approvals: their attachments (staging, upload, reading) and their outcome. */
export enum ApprovalErrorCode {
  AttachmentNotFound = 'attachment_not_found',
  BadCredentials = 'bad_credentials',
  UploadLinkInvalid = 'upload_link_invalid',
  ActiveContent = 'active_content_refused',
  TooLarge = 'attachment_too_large',
  InvalidToken = 'invalid_token',
  InsufficientScope = 'insufficient_scope',
  OutcomeNotFound = 'approval_not_found',
}

const STATUS: Record<ApprovalErrorCode, number> = {
  [ApprovalErrorCode.AttachmentNotFound]: 404,
  [ApprovalErrorCode.BadCredentials]: 401,
  [ApprovalErrorCode.UploadLinkInvalid]: 403,
  [ApprovalErrorCode.ActiveContent]: 400,
  [ApprovalErrorCode.TooLarge]: 413,
  [ApprovalErrorCode.InvalidToken]: 401,
  [ApprovalErrorCode.InsufficientScope]: 403,
  [ApprovalErrorCode.OutcomeNotFound]: 404,
};

export class ApprovalException extends domainException<ApprovalErrorCode>(STATUS) {}
