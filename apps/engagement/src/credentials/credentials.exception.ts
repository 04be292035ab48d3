import { domainException } from '@kyc/platform';

export enum CredentialsErrorCode {
  ProviderNotConfigured = 'provider_not_configured',
  WabaTaken = 'waba_taken',
  ProviderRefused = 'provider_refused',
  ProviderCredentialsRejected = 'provider_credentials_rejected',
  ProviderUnavailable = 'provider_unavailable',
}

const STATUS: Record<CredentialsErrorCode, number> = {
  [CredentialsErrorCode.ProviderNotConfigured]: 409,
  [CredentialsErrorCode.WabaTaken]: 409,
  [CredentialsErrorCode.ProviderRefused]: 502,
  // The account's saved token is what the provider refuses: the account can fix it (PUT provider-credentials).
  [CredentialsErrorCode.ProviderCredentialsRejected]: 409,
  [CredentialsErrorCode.ProviderUnavailable]: 503,
};

export class CredentialsException extends domainException<CredentialsErrorCode>(STATUS) {}
