import { domainException } from '@kyc/platform';

export enum CustomTypeErrorCode {
  BuiltInType = 'built_in_type',
  CustomTypeExists = 'custom_type_exists',
  CustomTypeNotFound = 'custom_type_not_found',
}

const STATUS: Record<CustomTypeErrorCode, number> = {
  [CustomTypeErrorCode.BuiltInType]: 400,
  [CustomTypeErrorCode.CustomTypeExists]: 409,
  [CustomTypeErrorCode.CustomTypeNotFound]: 404,
};

export class CustomTypeException extends domainException<CustomTypeErrorCode>(STATUS) {}
