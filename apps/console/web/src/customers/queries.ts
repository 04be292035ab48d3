import type { CustomersPaths } from '@kyc/client';

import { api, call } from '../api/client';

/** The JSON body of a path's 200 (or 201) answer. */
type Ok<T> = T extends { responses: { 200: { content: { 'application/json': infer B } } } }
  ? B
  : T extends { responses: { 201: { content: { 'application/json': infer B } } } }
    ? B
    : never;

export type Contact = Ok<CustomersPaths['/v1/contacts/{contact_id}']['get']>['contact'];
export type ContactProperty = Ok<CustomersPaths['/v1/contact-properties']['get']>['contact_properties'][number];
export type Customer = Ok<CustomersPaths['/v1/customers/{customer_id}']['get']>['customer'];
export type Transaction = Ok<CustomersPaths['/v1/customers/{customer_id}/transactions']['get']>['transactions'][number];

/** What a contact search looks up: the API's exact filters of the contacts list. */
export const CONTACT_SEARCH_FIELDS = ['phone_number', 'email', 'external_id'] as const;
export type ContactSearchField = (typeof CONTACT_SEARCH_FIELDS)[number];
export interface ContactSearch {
  field?: ContactSearchField;
  value?: string;
  start_key?: string;
}

/** `start_key` of a `next` link. */
export const startKeyOf = (next?: string) =>
  next ? (new URL(next, location.origin).searchParams.get('start_key') ?? undefined) : undefined;

/** The fetchers of the customers area (contacts, properties, profiles), over the typed customers client. */
export const customersQueries = {
  contacts: (search: ContactSearch) =>
    call(
      api.customers.GET('/v1/contacts', {
        params: {
          query: {
            start_key: search.start_key,
            ...(search.field && search.value ? { [search.field]: search.value } : {}),
          },
        },
      }),
    ),
  contact: (contactId: string) =>
    call(api.customers.GET('/v1/contacts/{contact_id}', { params: { path: { contact_id: contactId } } })),
  properties: () => call(api.customers.GET('/v1/contact-properties')),
  customer: (customerId: string) =>
    call(api.customers.GET('/v1/customers/{customer_id}', { params: { path: { customer_id: customerId } } })),
  identities: (customerId: string) =>
    call(
      api.customers.GET('/v1/customers/{customer_id}/identities', { params: { path: { customer_id: customerId } } }),
    ),
  transactions: (customerId: string, startKey?: string) =>
    call(
      api.customers.GET('/v1/customers/{customer_id}/transactions', {
        params: { path: { customer_id: customerId }, query: { start_key: startKey } },
      }),
    ),
  tagHistory: (customerId: string, startKey?: string) =>
    call(
      api.customers.GET('/v1/customers/{customer_id}/tag-history', {
        params: { path: { customer_id: customerId }, query: { start_key: startKey } },
      }),
    ),
};

/**
 * The console page of the check or identity process a transaction came from (validations of a
 * process name it in their data), or none.
 */
export function sourceLink(t: Transaction): string | undefined {
  const data = (t.data ?? {}) as Record<string, unknown>;
  if (t.product === 'check') return `/checks/${t.source_id}`;
  if (t.product === 'process') return `/processes/${t.source_id}`;
  if (t.product === 'validation' && typeof data.process_id === 'string') return `/processes/${data.process_id}`;
  return undefined;
}
