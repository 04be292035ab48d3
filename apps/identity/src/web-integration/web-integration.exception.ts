import { domainException } from '@kyc/platform';

export enum WebIntegrationErrorCode {
  DeliveryNotFound = 'delivery_not_found',
}

const STATUS: Record<WebIntegrationErrorCode, number> = {
  [WebIntegrationErrorCode.DeliveryNotFound]: 404,
};

export class WebIntegrationException extends domainException<WebIntegrationErrorCode>(STATUS) {}
