import { randomUUID } from 'node:crypto';

import { CHECK_EVENT_TYPES, EventEnvelope, TOPICS } from '@kyc/contracts';
import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  startInProcess,
  startKafka,
  startService,
  stopKafka,
  testKafka,
  TestTenant,
} from '@kyc/testing';

import { InboxService } from '../../src/events/inbox.service';

type App = Awaited<ReturnType<typeof startInProcess>>;

const count = async (sql: string, params: unknown[]) => (await db().query(sql, params)).rows[0].n as number;
const recorded = (checkId: string) =>
  count(`SELECT count(*)::int AS n FROM account.finished_checks WHERE check_id = $1`, [checkId]);

function finishedEvent(tenantId: string, checkId: string, payload?: unknown): EventEnvelope {
  return {
    id: randomUUID(),
    type: CHECK_EVENT_TYPES.finished,
    version: 1,
    tenant_id: tenantId,
    occurred_at: new Date().toISOString(),
    aggregate_id: checkId,
    payload: payload ?? {
      check: {
        check_id: checkId,
        tenant_id: tenantId,
        country: 'CO',
        type: 'person',
        status: 'completed',
        score: 0.5,
        id_score: 0.5,
        homonym_score: 1,
        inputs: {},
        creation_date: '',
        update_date: '',
      },
    },
  };
}

describe('outbox relay and idempotent consumers against real Kafka', () => {
  let checks: App;
  let account: App;
  let tenant: TestTenant;

  beforeAll(async () => {
    [checks, account] = await Promise.all([
      startService('checks', { OUTBOX_POLL_MS: '200' }),
      startService('account', {
        KAFKA_CONSUMER_GROUP: `account-outbox-spec-${randomUUID().slice(0, 8)}`,
      }),
    ]);
    tenant = await createTenant(account.url, [checks.url]);
  });

  afterAll(async () => {
    await Promise.all([checks?.close(), account?.close()]);
    await closeDb();
  });

  it('while Kafka is down: alive but not ready, reads answered, events kept in the outbox and delivered once it is back', async () => {
    await stopKafka();
    let restarted = false;
    try {
      const api = new ApiClient(checks.url, tenant.apiKey);
      const created = await api.post('/v1/checks', {
        country: 'CO',
        type: 'person',
        user_authorized: 'true',
        national_id: `${Date.now()}`,
      });
      expect(created.status).toBe(201);
      const checkId = created.body.check.check_id;
      // The worker completes the check: the state change and its event commit together...
      await eventually(
        async () => expect((await api.get(`/v1/checks/${checkId}`)).body.check.status).toBe('completed'),
        { timeoutMs: 10_000 },
      );
      const pending = () =>
        count(`SELECT count(*)::int AS n FROM checks.outbox WHERE message_key = $1 AND published_at IS NULL`, [
          checkId,
        ]);
      // Not ready (no traffic routed), yet alive (no restart): /health is the readiness alias.
      await eventually(async () => expect((await fetch(`${checks.url}/readyz`)).status).toBe(503), {
        timeoutMs: 10_000,
      });
      // ...and, with the broker down (the service saw it), the events wait in the outbox.
      expect(await pending()).toBe(2);
      const readyz = await fetch(`${checks.url}/readyz`);
      expect(await readyz.json()).toMatchObject({
        code: 503,
        error_code: 'service_unavailable',
        checks: { kafka: 'down' },
      });
      expect((await fetch(`${checks.url}/health`)).status).toBe(503);
      const livez = await fetch(`${checks.url}/livez`);
      expect([livez.status, await livez.json()]).toEqual([200, { status: 'ok', service: 'checks' }]);
      // Reads keep being answered while the broker is down.
      expect((await api.get(`/v1/checks/${checkId}`)).status).toBe(200);

      await startKafka();
      restarted = true;
      await eventually(async () => expect(await pending()).toBe(0), { timeoutMs: 60_000, intervalMs: 250 });
      await eventually(async () => expect(await recorded(checkId)).toBe(1), { timeoutMs: 60_000, intervalMs: 250 });
      await eventually(async () => expect((await fetch(`${checks.url}/readyz`)).status).toBe(200), {
        timeoutMs: 20_000,
      });
      expect((await fetch(`${checks.url}/health`)).status).toBe(200);
      expect((await fetch(`${checks.url}/livez`)).status).toBe(200);
    } finally {
      // Only when the test failed before restarting it: a second broker cannot bind the port and
      // exits, but its pid would replace the running broker's in kafka.pid, and the teardown would
      // then leave the running one behind.
      if (!restarted) await startKafka().catch(() => undefined);
    }
  });

  it('applies a redelivered event only once', async () => {
    const checkId = `CHK${randomUUID().replace(/-/g, '')}`;
    const event = finishedEvent(tenant.tenantId, checkId);
    const producer = testKafka().producer();
    await producer.connect();
    try {
      const message = { key: checkId, value: JSON.stringify(event) };
      await producer.send({ topic: TOPICS.checkFinished, messages: [message] });
      await producer.send({ topic: TOPICS.checkFinished, messages: [message, message] });
    } finally {
      await producer.disconnect();
    }
    await eventually(async () => expect(await recorded(checkId)).toBe(1), { timeoutMs: 15_000 });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await recorded(checkId)).toBe(1);
    expect(
      await count(`SELECT count(*)::int AS n FROM account.processed_messages WHERE event_id = $1 AND consumer = $2`, [
        event.id,
        'account.finished-checks', // account's consumer of checks.check.finished
      ]),
    ).toBe(1);
  });

  it('parks a poison message after bounded retries and keeps consuming', async () => {
    const poison = finishedEvent(tenant.tenantId, 'CHKpoison', { not_a_check: true });
    const good = finishedEvent(tenant.tenantId, `CHK${randomUUID().replace(/-/g, '')}`);
    const producer = testKafka().producer();
    await producer.connect();
    await producer.send({
      topic: TOPICS.checkFinished,
      messages: [poison, good].map((e) => ({ key: e.aggregate_id, value: JSON.stringify(e) })),
    });
    await producer.disconnect();
    await eventually(
      async () =>
        expect(
          await count(`SELECT count(*)::int AS n FROM account.parked_messages WHERE event_id = $1`, [poison.id]),
        ).toBe(1),
      { timeoutMs: 20_000 },
    );
    await eventually(async () => expect(await recorded(good.aggregate_id)).toBe(1), { timeoutMs: 20_000 });
    expect(
      await count(`SELECT count(*)::int AS n FROM account.processed_messages WHERE event_id = $1`, [poison.id]),
    ).toBe(0);
  });

  it('InboxService: a second delivery of the same event id is a duplicate, and a failed effect leaves no trace', async () => {
    const inbox = account.app.get(InboxService);
    const event = finishedEvent(tenant.tenantId, 'CHKinbox');
    let effects = 0;
    expect(await inbox.handle('test.consumer', event, async () => void effects++)).toBe('processed');
    expect(await inbox.handle('test.consumer', event, async () => void effects++)).toBe('duplicate');
    expect(effects).toBe(1);
    const failing = finishedEvent(tenant.tenantId, 'CHKinbox2');
    const outcome = await inbox.handle(
      'test.consumer',
      failing,
      async (m) => {
        await m.query(
          `INSERT INTO finished_checks (event_id, tenant_id, check_id, status, score, payload) VALUES ($1, 't', 'c', 's', 0, '{}')`,
          [failing.id],
        );
        throw new Error('effect failed after writing');
      },
      { attempts: 2, backoffMs: 10 },
    );
    expect(outcome).toBe('parked');
    expect(
      await count(`SELECT count(*)::int AS n FROM account.finished_checks WHERE event_id = $1`, [failing.id]),
    ).toBe(0);
    expect(
      await count(`SELECT count(*)::int AS n FROM account.processed_messages WHERE event_id = $1`, [failing.id]),
    ).toBe(0);
  });

  it('InboxService: an error the caller retries itself (passThrough) is rethrown at once, rolled back, not parked', async () => {
    const inbox = account.app.get(InboxService);
    const later = finishedEvent(tenant.tenantId, 'CHKinbox3');
    class NotYet extends Error {}
    let runs = 0;
    await expect(
      inbox.handle(
        'test.consumer',
        later,
        async () => {
          runs++;
          throw new NotYet('not yet');
        },
        { attempts: 3, backoffMs: 10, passThrough: (err) => err instanceof NotYet },
      ),
    ).rejects.toBeInstanceOf(NotYet);
    expect(runs).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM account.parked_messages WHERE event_id = $1`, [later.id])).toBe(
      0,
    );
    // The next delivery runs the effect (nothing was recorded as processed).
    expect(await inbox.handle('test.consumer', later, async () => void runs++)).toBe('processed');
    expect(runs).toBe(2);
  });
});
