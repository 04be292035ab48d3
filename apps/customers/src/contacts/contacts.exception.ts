import { domainException } from '@kyc/platform';

export enum ContactErrorCode {
  ContactNotFound = 'contact_not_found',
  ContactAlreadyExists = 'contact_already_exists',
  PropertyAlreadyExists = 'contact_property_already_exists',
  VisiblePropertiesLimit = 'visible_properties_limit_reached',
}

const STATUS: Record<ContactErrorCode, number> = {
  [ContactErrorCode.ContactNotFound]: 404,
  [ContactErrorCode.ContactAlreadyExists]: 409,
  [ContactErrorCode.PropertyAlreadyExists]: 409,
  [ContactErrorCode.VisiblePropertiesLimit]: 422,
};

export class ContactException extends domainException<ContactErrorCode>(STATUS) {}
