import { randomUUID } from 'node:crypto';

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
import type { Producer } from 'kafkajs';

import { accountService } from '../../src/app.module';
import { checkRecord, finishedEvent, publish, Receiver, ruleWithActions, startReceiver } from './support/rules-helpers';

/**
 * Issue 16, points 2 and 3. One tenant cannot stall the rules engine: a condition whose
 * worst-case cost is over the budget is refused when written (400 naming the path), and an
 * evaluation that goes over its step budget fails that execution with the reason recorded while
 * other rules keep running. An http_request action cannot reach internal addresses. The account service
 * runs with no OUTBOUND_HTTP_ALLOW exception (as in production); a receiver listens on loopback.
 * Every spelling of loopback, the service's own port and the cloud metadata address fail the
 * execution with the fixed reason `blocked_address`, at once (no retry), and nothing arrives.
 */
describe('rules engine hardening: cost budget and SSRF policy (account)', () => {
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

  const list = (n: number) => Array.from({ length: n }, (_, i) => i);
  const nestedSome = (levels: number, n: number): unknown => {
    let body: unknown = { '==': [{ var: '' }, { var: 'score' }] };
    for (let i = 0; i < levels; i++) body = { some: [list(n), body] };
    return body;
  };

  it('refuses a condition whose worst-case cost is over the budget, naming the path, and stores nothing', async () => {
    const before = (await api.get<{ rules: unknown[] }>('/v1/bre/rules')).body.rules.length;
    for (const condition of [nestedSome(3, 450), nestedSome(4, 1_200)]) {
      for (const res of [
        await api.postJson('/v1/bre/rules', { name: 'bomb', event_type: 'checks.check.finished', condition }),
        await api.post('/v1/bre/rules', {
          name: 'bomb',
          event_type: 'checks.check.finished',
          condition: JSON.stringify(condition),
        }),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 400, error_code: 'validation_failed' });
        const budgetMessage: unknown = expect.stringMatching(/some\[1\]\.some.*budget of 100,000/);
        expect((res.body as { fields: unknown }).fields).toEqual([{ field: 'condition', message: budgetMessage }]);
      }
    }
    expect((await api.get<{ rules: unknown[] }>('/v1/bre/rules')).body.rules.length).toBe(before);
  });

  it('fails the execution of a rule that goes over its step budget on an event, and other rules still run', async () => {
    // Accepted: a list an operator returns is assumed to hold 100 items, so the estimate is ~62,000
    // steps; on an MX check the `if` returns 2,000 items, and the evaluation takes 200,000.
    const heavy = await ruleWithActions(
      api,
      {
        some: [
          { if: [{ '==': [{ var: 'country' }, 'MX'] }, list(2_000), []] },
          { some: [list(100), { '==': [{ var: '' }, -1] }] },
        ],
      },
      [{ type: 'http_request', config: { url: 'https://receiver.invalid/heavy' } }],
    );
    const light = await ruleWithActions(api, { '==': [{ var: 'country' }, 'MX'] }, [
      { type: 'http_request', config: { url: 'https://receiver.invalid/light' } },
    ]);
    const started = Date.now();
    await publish(producer, finishedEvent(checkRecord(tenant.tenantId, { country: 'MX' })));
    const [failed] = await eventually(
      async () => {
        const list = (await api.get<{ executions: unknown[] }>(`/v1/bre/executions?rule_id=${heavy.ruleId}`)).body
          .executions;
        expect(list).toHaveLength(1);
        return list;
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(failed).toMatchObject({
      outcome: 'failed',
      error: 'the condition could not be evaluated: the evaluation went over its step budget',
    });
    await eventually(
      async () => {
        const list = (await api.get<{ executions: unknown[] }>(`/v1/bre/executions?rule_id=${light.ruleId}`)).body
          .executions;
        expect(list.length).toBe(1);
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(Date.now() - started).toBeLessThan(15_000);
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
        const list = (await api.get<{ executions: { outcome: string }[] }>(`/v1/bre/executions?rule_id=${ruleId}`)).body
          .executions;
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
