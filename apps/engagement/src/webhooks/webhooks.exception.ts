import { domainException } from '@kyc/platform';

export enum WebhookErrorCode {
  UnknownProvider = 'unknown_provider',
  InvalidSignature = 'invalid_signature',
  InvalidBody = 'invalid_body',
  VerificationFailed = 'verification_failed',
}

const STATUS: Record<WebhookErrorCode, number> = {
  [WebhookErrorCode.UnknownProvider]: 404,
  [WebhookErrorCode.InvalidSignature]: 401,
  [WebhookErrorCode.InvalidBody]: 400,
  [WebhookErrorCode.VerificationFailed]: 403,
};

export class WebhookException extends domainException<WebhookErrorCode>(STATUS) {}
