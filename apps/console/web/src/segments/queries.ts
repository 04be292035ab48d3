import type { CustomersPaths } from '@kyc/client';

import { api, call } from '../api/client';
import type { LogicVariable } from '../shared/logic/LogicEditor';

type Ok<T> = T extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
export type Segment = Ok<CustomersPaths['/v1/customers/segments/{segment_id}']['get']>['segment'];

/** A compute still under way: the page watches it. */
export const computing = (s: Segment) => s.compute.status === 'queued' || s.compute.status === 'running';

export const segmentsQueries = {
  list: (query: { name?: string; start_key?: string }) =>
    call(api.customers.GET('/v1/customers/segments', { params: { query } })),
  get: (segmentId: string) =>
    call(api.customers.GET('/v1/customers/segments/{segment_id}', { params: { path: { segment_id: segmentId } } })),
  members: (segmentId: string, startKey?: string) =>
    call(
      api.customers.GET('/v1/customers/segments/{segment_id}/profiles', {
        params: { path: { segment_id: segmentId }, query: { start_key: startKey } },
      }),
    ),
  /** The variables a rule may read, as the rule editor takes them (labels are the names). */
  variables: async (): Promise<LogicVariable[]> =>
    (await call(api.customers.GET('/v1/customers/segments/variables'))).variables.map((v) => ({
      name: v.name,
      type: v.type,
      label: v.name,
    })),
};
