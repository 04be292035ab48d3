import { domainException } from '@kyc/platform';

export enum WebhookErrorCode {
  UnknownWebhookType = 'unknown_webhook_type',
  MissingSignature = 'missing_webhook_signature',
  InvalidSignature = 'invalid_webhook_signature',
  UnknownReference = 'unknown_webhook_reference',
  InvalidBody = 'invalid_webhook_body',
}

const STATUS: Record<WebhookErrorCode, number> = {
  [WebhookErrorCode.UnknownWebhookType]: 404,
  [WebhookErrorCode.MissingSignature]: 401,
  [WebhookErrorCode.InvalidSignature]: 401,
  [WebhookErrorCode.UnknownReference]: 404,
  [WebhookErrorCode.InvalidBody]: 400,
};

export class WebhookException extends domainException<WebhookErrorCode>(STATUS) {}
