import { domainException } from '@kyc/platform';

export enum ApiKeyErrorCode {
  ApiKeyNotFound = 'api_key_not_found',
}

const STATUS: Record<ApiKeyErrorCode, number> = {
  [ApiKeyErrorCode.ApiKeyNotFound]: 404,
};

export class ApiKeyException extends domainException<ApiKeyErrorCode>(STATUS) {}
