/**
 * Every Kafka message value is one envelope. `aggregate_id` is also the Kafka message key, so
 * the events of one aggregate keep their order. `correlation_id` is the id of the request that
 * caused the event; consumers log with it.
 */
export interface EventEnvelope<TPayload = unknown, TType extends string = string> {
  id: string;
  type: TType;
  version: number;
  tenant_id: string | null;
  occurred_at: string;
  aggregate_id: string;
  correlation_id?: string;
  payload: TPayload;
}
