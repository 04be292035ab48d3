import { randomUUID } from 'node:crypto';

import { CheckFinishedPayload, CheckRecord, EventEnvelope, TOPICS } from '@kyc/contracts';
import { eventually, freePort, ServiceProcess, startInProcess, startProcess } from '@kyc/testing';
import type { Producer } from 'kafkajs';

import { customersService } from '../../../src/app.module';

/** The checks service as its own process, its sandbox databases answering at once. */
export async function startChecks(): Promise<ServiceProcess> {
  return startProcess('checks', await freePort(), { CHECKS_SANDBOX_LATENCY_SCALE: '0', JOBS_POLL_MS: '100' });
}

/** The account service as its own process (tenants, users and roles reach customers through Kafka). */
export async function startAccount(): Promise<ServiceProcess> {
  return startProcess('account', await freePort(), { KAFKA_CONSUMER_GROUP: `account-${randomUUID().slice(0, 8)}` });
}

/** The customers service in the test process, with its own consumer group (it reads every topic from the start). */
export function startCustomers(env: Record<string, string> = {}) {
  return startInProcess('customers', customersService, {
    KAFKA_CONSUMER_GROUP: `customers-${randomUUID().slice(0, 8)}`,
    JOBS_POLL_MS: '200',
    ...env,
  });
}

export const checkRecord = (tenantId: string, over: Partial<CheckRecord> = {}): CheckRecord => {
  const now = new Date().toISOString();
  return {
    check_id: `CHK${randomUUID().replace(/-/g, '')}`,
    tenant_id: tenantId,
    country: 'CO',
    type: 'person',
    status: 'completed',
    score: 0.4,
    id_score: 0.5,
    homonym_score: 1,
    custom_input: null,
    inputs: { national_id: '1020304050', first_name: 'Ana', last_name: 'Perez' },
    creation_date: now,
    update_date: now,
    ...over,
  };
};

/** A checks.check.finished envelope as the checks service publishes it. */
export const checkFinishedEvent = (
  check: CheckRecord,
  occurredAt = new Date(),
): EventEnvelope<CheckFinishedPayload> => ({
  id: randomUUID(),
  type: TOPICS.checkFinished,
  version: 1,
  tenant_id: check.tenant_id,
  occurred_at: occurredAt.toISOString(),
  aggregate_id: check.check_id,
  payload: { check },
});

/** A validations.validation.finished envelope, the shape a validations client would see. */
export function validationFinishedEvent(
  tenantId: string,
  payload: Record<string, unknown>,
  occurredAt = new Date(),
): EventEnvelope<Record<string, unknown>> {
  const validationId = (payload.validation_id as string) ?? `VLD${randomUUID().replace(/-/g, '')}`;
  return {
    id: randomUUID(),
    type: TOPICS.validationFinished,
    version: 1,
    tenant_id: tenantId,
    occurred_at: occurredAt.toISOString(),
    aggregate_id: validationId,
    payload: {
      validation_id: validationId,
      account_id: `ACC${randomUUID().slice(0, 8)}`,
      type: 'document-validation',
      validation_status: 'success',
      ...payload,
    },
  };
}

export async function publish(producer: Producer, ...events: EventEnvelope[]): Promise<void> {
  for (const e of events)
    await producer.send({ topic: e.type, messages: [{ key: e.aggregate_id, value: JSON.stringify(e) }] });
}

export const waitFor = <T>(fn: () => Promise<T>, timeoutMs = 20_000) => eventually(fn, { timeoutMs, intervalMs: 150 });
