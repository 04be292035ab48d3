import { randomUUID } from 'node:crypto';
import type { Producer } from 'kafkajs';
import {
  ApiClient,
  closeDb,
  createTenant,
  eventually,
  RunningService,
  startInProcess,
  testKafka,
  TestTenant,
} from '@kyc/testing';
import { accountService } from '../../src/app.module';
import { checkRecord, finishedEvent, publish, Receiver, ruleWithActions, startReceiver } from './support/rules-helpers';

/**
 * Issue 16, point 3: an http_request action cannot reach internal addresses. The account service
 * runs with no OUTBOUND_HTTP_ALLOW exception (as in production); a receiver listens on loopback.
 * Every spelling of loopback, the service's own port and the cloud metadata address fail the
 * execution with the fixed reason `blocked_address`, at once (no retry), and nothing arrives.
 */
describe('rules engine http_request: SSRF policy (account)', () => {
  let account: RunningService;
  let receiver: Receiver;
  let producer: Producer;
  let tenant: TestTenant;
  let api: ApiClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    account = await startInProcess('account', accountService, {
      KAFKA_CONSUMER_GROUP: `account-rules-ssrf-${randomUUID().slice(0, 8)}`,
      OUTBOUND_HTTP_ALLOW: '',
      JOBS_POLL_MS: '200',
    });
    tenant = await createTenant(account.url);
    api = new ApiClient(account.url, tenant.apiKey);
    producer = testKafka().producer();
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await account?.close();
    await receiver?.close();
    await closeDb();
  });

  it('refuses every spelling of loopback, the platform itself and 169.254.169.254, recording only blocked_address', async () => {
    const port = new URL(receiver.url).port;
    const ownPort = new URL(account.url).port;
    const targets = [
      `http://127.0.0.1:${port}/a`,
      `http://localhost:${port}/a`,
      `http://[::1]:${port}/a`,
      `http://0.0.0.0:${port}/a`,
      `http://2130706433:${port}/a`,
      `http://127.1:${port}/a`,
      `http://0x7f000001:${port}/a`,
      `http://[::ffff:127.0.0.1]:${port}/a`,
      `http://127.0.0.1:${ownPort}/metrics`,
      'http://169.254.169.254/latest/meta-data/',
    ];
    const { ruleId } = await ruleWithActions(
      api,
      { '==': [{ var: 'country' }, 'CO'] },
      targets.map((url) => ({ type: 'http_request', config: { url, max_attempts: 3 } })),
    );
    await publish(producer, finishedEvent(checkRecord(tenant.tenantId)));
    const executions = await eventually(
      async () => {
        const list = (await api.get(`/v1/bre/executions?rule_id=${ruleId}`)).body.executions as any[];
        expect(list.filter((e) => e.outcome === 'failed')).toHaveLength(targets.length);
        return list;
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    for (const e of executions)
      expect(e).toMatchObject({ outcome: 'failed', attempts: 1, error: 'request failed: blocked_address' });
    expect(receiver.requests).toEqual([]);
  });
});
