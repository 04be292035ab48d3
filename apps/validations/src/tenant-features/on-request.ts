/**
 * Document-validation countries and document types the spec makes available "on request" (to
 * sales): a tenant uses them once a platform operator enables them
 * (PUT /v1/admin/tenants/{tenant_id}/validation-features).
 */
export const ON_REQUEST_COUNTRIES = ['BR', 'CR'] as const;
export const ON_REQUEST_DOCUMENT_TYPES = ['ppt'] as const;

export type OnRequestCountry = (typeof ON_REQUEST_COUNTRIES)[number];
export type OnRequestDocumentType = (typeof ON_REQUEST_DOCUMENT_TYPES)[number];
