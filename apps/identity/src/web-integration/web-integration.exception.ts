import { domainException } from '@kyc/platform';

export enum WebIntegrationErrorCode {
  BackendKeyRequired = 'backend_key_required',
  DeliveryNotFound = 'delivery_not_found',
}

const STATUS: Record<WebIntegrationErrorCode, number> = {
  [WebIntegrationErrorCode.BackendKeyRequired]: 403,
  [WebIntegrationErrorCode.DeliveryNotFound]: 404,
};

export class WebIntegrationException extends domainException<WebIntegrationErrorCode>(STATUS) {}
