import { randomUUID } from 'node:crypto';

import {
  ApiClient,
  closeDb,
  createTenant,
  eventually,
  RunningService,
  SmtpSink,
  startInProcess,
  startSmtpSink,
  testKafka,
  TestTenant,
} from '@kyc/testing';
import type { Producer } from 'kafkajs';

import { accountService } from '../../src/app.module';
import { Receiver, startReceiver } from './support/rules-helpers';

/**
 * The rules engine running on `checks.check.finished` events delivered through real Kafka to the
 * account service (in-process): conditions, the three action types, templates with env vars,
 * signatures, retries, redelivery, tenant isolation, the depth limit, executions.
 */
export let account: RunningService;

export let smtp: SmtpSink;

export let receiver: Receiver;

export let producer: Producer;

export let tenant: TestTenant;

export let other: TestTenant;

export let api: ApiClient;

export let otherApi: ApiClient;

export const CO_PERSON = { and: [{ '==': [{ var: 'country' }, 'CO'] }, { '==': [{ var: 'type' }, 'person'] }] };

export const executionsOf = async (client: ApiClient, query: string) =>
  (await client.get(`/v1/bre/executions?${query}`)).body.executions as any[];

export const settled = (client: ApiClient, query: string, n = 1) =>
  eventually(
    async () => {
      const list = await executionsOf(client, query);
      expect(list.filter((e) => ['succeeded', 'failed', 'skipped'].includes(e.outcome))).toHaveLength(n);
      return list;
    },
    { timeoutMs: 20_000, intervalMs: 100 },
  );

export const quiet = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Registers the suite's setup and teardown (the bindings above are set in beforeAll). */
export function useRulesEngine(): void {
  beforeAll(async () => {
    [smtp, receiver] = await Promise.all([startSmtpSink(), startReceiver()]);
    account = await startInProcess('account', accountService, {
      KAFKA_CONSUMER_GROUP: `account-rules-engine-${randomUUID().slice(0, 8)}`,
      ACCOUNT_SMTP_URL: smtp.url,
      JOBS_POLL_MS: '200',
    });
    [tenant, other] = await Promise.all([createTenant(account.url), createTenant(account.url)]);
    api = new ApiClient(account.url, tenant.apiKey);
    otherApi = new ApiClient(account.url, other.apiKey);
    producer = testKafka().producer();
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await account?.close();
    await Promise.all([smtp?.close(), receiver?.close()]);
    await closeDb();
  });
}
