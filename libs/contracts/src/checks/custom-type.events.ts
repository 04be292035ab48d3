import type { CustomTypeCountry, DataSet } from './check.enums';

export const CUSTOM_TYPE_EVENT_TYPES = {
  created: 'checks.custom-type.created',
  deleted: 'checks.custom-type.deleted',
} as const;

/** A tenant's custom check type as other services see it (validations links document validations to it by name). */
export interface CustomTypeRecord {
  config_id: string;
  tenant_id: string;
  country: CustomTypeCountry;
  /** The custom type's name (what `custom_type` names elsewhere). */
  type: string;
  weights: Partial<Record<DataSet, number>>;
  created_at: string;
}

/** `checks.custom-type.created`: a custom type exists (POST /v1/config of the checks API). */
export interface CustomTypeCreatedPayload {
  custom_type: CustomTypeRecord;
}

/** `checks.custom-type.deleted`: the custom type `config_id` is gone (DELETE /v1/config). */
export interface CustomTypeDeletedPayload {
  custom_type: CustomTypeRecord;
}
