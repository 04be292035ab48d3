import { JobQueueService, ManualClock } from '@kyc/platform';
import { eventually, SandboxMessaging } from '@kyc/testing';

import { approvedOutbound, ConnectedTenant, events } from './support/engagement-helpers';
import { EngagementStack, useEngagementStack } from './support/engagement-stack';

const DAY = 24 * 60 * 60 * 1000;

/**
 * The daily quality review (a durable job) against the quality history the provider reports, with
 * the service's clock under the test's control: FLAGGED → APPROVED after 7 consecutive days of
 * HIGH or MEDIUM, FLAGGED → DISABLED after more than 7 days of LOW.
 */
describe('outbound quality over time', () => {
  let engagement: EngagementStack['engagement'];
  let sandbox: SandboxMessaging;
  let t: ConnectedTenant;
  let tenantId: string;
  const clock = new ManualClock(new Date());
  const SCHEMA = 'engagement_quality_spec';

  const stack = useEngagementStack({
    consumerGroup: 'account-engagement-quality-spec',
    sandbox: { reviewDelayMs: 100, statusDelayMs: 50 },
    // A schema of its own: the review jobs run on this suite's ManualClock only, never claimed by
    // the engagement services of suites running at the same time (their clocks are real).
    env: { DB_SCHEMA: SCHEMA },
    options: { clock },
  });

  beforeAll(async () => {
    ({ engagement, sandbox } = stack);
    const connected = await stack.connectedTenant();
    tenantId = connected.tenant.tenantId;
    t = connected.t;
  });

  const quality = (o: { outbound_id: string }, q: string) =>
    fetch(`${sandbox.url}/_sandbox/quality`, {
      method: 'POST',
      body: JSON.stringify({ template_name: `${o.outbound_id.toLowerCase()}_1`, quality: q }),
    });
  const status = async (o: { outbound_id: string }) =>
    (await t.api.get(`/v1/msg/outbounds/${o.outbound_id}`)).body.status;
  const expectStatus = (o: { outbound_id: string }, s: string) =>
    eventually(async () => expect(await status(o)).toBe(s), { timeoutMs: 10_000 });
  /** Moves the clock and runs the review that became due (it schedules the next day's). */
  const advance = async (ms: number) => {
    clock.advance(ms);
    await engagement.app.get(JobQueueService).drain();
  };

  it('flags on a quality drop, approves after 7 good days, disables after more than 7 low days', async () => {
    const [low, recovers, lateRecovery] = await Promise.all([
      approvedOutbound(t),
      approvedOutbound(t),
      approvedOutbound(t),
    ]);
    for (const o of [low, recovers, lateRecovery]) await quality(o, 'RED');
    for (const o of [low, recovers, lateRecovery]) await expectStatus(o, 'FLAGGED');
    expect((await t.api.get(`/v1/msg/outbounds/${low.outbound_id}`)).body.quality).toBe('LOW');
    await quality(recovers, 'YELLOW');
    await eventually(async () =>
      expect((await t.api.get(`/v1/msg/outbounds/${recovers.outbound_id}`)).body.quality).toBe('MEDIUM'),
    );

    await advance(3 * DAY);
    await quality(lateRecovery, 'GREEN');
    await eventually(async () =>
      expect((await t.api.get(`/v1/msg/outbounds/${lateRecovery.outbound_id}`)).body.quality).toBe('HIGH'),
    );

    await advance(3 * DAY);
    // Day 6: nothing has lasted 7 days yet.
    for (const o of [low, recovers, lateRecovery]) expect(await status(o)).toBe('FLAGGED');

    await advance(DAY + 2 * 60 * 60 * 1000);
    // Day 7 + 2 h: MEDIUM for 7 days → APPROVED; LOW for more than 7 days → DISABLED; HIGH for 4 days → still FLAGGED.
    await expectStatus(recovers, 'APPROVED');
    await expectStatus(low, 'DISABLED');
    expect(await status(lateRecovery)).toBe('FLAGGED');

    await advance(3 * DAY);
    await expectStatus(lateRecovery, 'APPROVED');

    const changes = await events(tenantId, 'engagement.outbound.status-changed', SCHEMA);
    const of = (o: { outbound_id: string }) =>
      changes.filter((e) => e.outbound_id === o.outbound_id).map((e) => e.status);
    expect(of(low)).toEqual(['APPROVED', 'FLAGGED', 'DISABLED']);
    expect(of(recovers)).toEqual(['APPROVED', 'FLAGGED', 'APPROVED']);
    expect(of(lateRecovery)).toEqual(['APPROVED', 'FLAGGED', 'APPROVED']);

    // DISABLED cannot be edited.
    const edit = await t.api.request<any>('PUT', `/v1/msg/outbounds/${low.outbound_id}`, {
      outbound_name: 'x',
      waba_phone_number: t.line,
      category: 'UTILITY',
      language_code: 'es',
      template_type: 'TEXT',
      is_notification: 'true',
      content: 'Hola',
    });
    expect(edit.status).toBe(409);
    expect(edit.body.error_code).toBe('outbound_not_editable');
  });
});
