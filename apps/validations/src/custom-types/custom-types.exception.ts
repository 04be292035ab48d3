import { domainException } from '@kyc/platform';

/** Error codes of custom validation types. */
export enum CustomTypeErrorCode {
  CustomTypeNotFound = 'custom_type_not_found',
}

const STATUS: Record<CustomTypeErrorCode, number> = {
  [CustomTypeErrorCode.CustomTypeNotFound]: 400,
};

export class CustomTypeException extends domainException<CustomTypeErrorCode>(STATUS) {}
