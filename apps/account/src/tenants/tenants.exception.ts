import { domainException } from '@kyc/platform';

export enum TenantErrorCode {
  TenantNotFound = 'tenant_not_found',
}

const STATUS: Record<TenantErrorCode, number> = {
  [TenantErrorCode.TenantNotFound]: 404,
};

export class TenantException extends domainException<TenantErrorCode>(STATUS) {}
