import { ManualClock } from '@kyc/platform';
import { ApiClient, createTenant, db, eventually } from '@kyc/testing';

import { approvedOutbound, ConnectedTenant, connectTenant } from './support/engagement-helpers';
import { useEngagementStack } from './support/engagement-stack';

const DAY = 24 * 60 * 60 * 1000;

/**
 * The hourly retention job (durable, by the service's clock): webhook_events older than
 * ENGAGEMENT_WEBHOOK_RETENTION_DAYS go, recent ones stay; quality history older than
 * ENGAGEMENT_QUALITY_HISTORY_RETENTION_DAYS goes except each outbound's newest rating before the cutoff.
 */
describe('engagement retention of append-only tables', () => {
  let t: ConnectedTenant;
  const clock = new ManualClock(new Date());
  // A schema of its own: its retention jobs run on this suite's ManualClock only (never claimed by
  // the engagement services of suites running at the same time), and its webhook records are its own.
  const SCHEMA = 'engagement_retention_spec';

  const stack = useEngagementStack({
    consumerGroup: 'account-engagement-retention-spec',
    sandbox: { reviewDelayMs: 100, statusDelayMs: 50 },
    env: {
      ENGAGEMENT_WEBHOOK_RETENTION_DAYS: '30',
      ENGAGEMENT_QUALITY_HISTORY_RETENTION_DAYS: '90',
      DB_SCHEMA: SCHEMA,
    },
    options: { clock },
  });

  beforeAll(async () => {
    const tenant = await createTenant(stack.account.url, [stack.engagement.url]);
    t = await connectTenant(new ApiClient(stack.engagement.url, tenant.apiKey), stack.sandbox);
  });

  const reply = (text: string) =>
    fetch(`${stack.sandbox.url}/_sandbox/reply`, {
      method: 'POST',
      body: JSON.stringify({ phone_number_id: t.phoneNumberId, from: '+573001230001', text }),
    });
  const webhookRows = async () =>
    (
      await db().query<{ digest: string; processed: boolean }>(
        `SELECT digest, processed_at IS NOT NULL AS processed FROM ${SCHEMA}.webhook_events`,
      )
    ).rows;
  const history = async (outboundId: string) =>
    (
      await db().query<{ quality: string }>(
        `SELECT quality FROM ${SCHEMA}.outbound_quality_history WHERE outbound_id = $1 ORDER BY at, id`,
        [outboundId],
      )
    ).rows.map((r) => r.quality);
  const quality = async (o: { outbound_id: string }, q: string, expected: number) => {
    await fetch(`${stack.sandbox.url}/_sandbox/quality`, {
      method: 'POST',
      body: JSON.stringify({ template_name: `${o.outbound_id.toLowerCase()}_1`, quality: q }),
    });
    await eventually(async () => expect((await history(o.outbound_id)).length).toBe(expected), { timeoutMs: 15_000 });
  };

  it('deletes old webhook records and old quality history, keeping recent rows and the newest rating', async () => {
    await reply('hola');
    await eventually(async () => expect((await webhookRows()).some((r) => r.processed)).toBe(true), {
      timeoutMs: 15_000,
    });
    // A webhook whose processing never finished, received long ago (its job gave up).
    await db().query(
      `INSERT INTO ${SCHEMA}.webhook_events (digest, received_at, processed_at) VALUES ('stuck-old', $1, NULL)`,
      [new Date(clock.now().getTime() - 40 * DAY)],
    );
    const outbound = await approvedOutbound(t);
    const before = (await history(outbound.outbound_id)).length;
    await quality(outbound, 'RED', before + 1);
    clock.advance(2 * DAY);
    await quality(outbound, 'YELLOW', before + 2);
    clock.advance(2 * DAY);
    await quality(outbound, 'GREEN', before + 3);
    const oldDigests = (await webhookRows()).map((r) => r.digest);

    // 20 days on: nothing is old enough but the stuck record.
    clock.advance(20 * DAY);
    await eventually(async () => expect((await webhookRows()).map((r) => r.digest)).not.toContain('stuck-old'), {
      timeoutMs: 15_000,
    });
    expect((await webhookRows()).map((r) => r.digest)).toEqual(
      expect.arrayContaining(oldDigests.filter((d) => d !== 'stuck-old')),
    );
    expect((await history(outbound.outbound_id)).length).toBe(before + 3);

    // 100 days after the first webhooks: those go; a webhook received now stays.
    clock.advance(76 * DAY);
    await reply('otra vez');
    await eventually(
      async () => {
        const digests = (await webhookRows()).map((r) => r.digest);
        expect(digests.filter((d) => oldDigests.includes(d))).toEqual([]);
        expect(digests.length).toBeGreaterThan(0);
      },
      { timeoutMs: 15_000 },
    );
    // Every rating is older than 90 days: only the newest (GREEN) is kept.
    await eventually(async () => expect(await history(outbound.outbound_id)).toEqual(['HIGH']), { timeoutMs: 15_000 });
  });
});
