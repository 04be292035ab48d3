import { randomBytes } from 'node:crypto';

import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  freePort,
  RunningService,
  SandboxMessaging,
  ServiceProcess,
  startProcess,
  startSandboxMessaging,
  startService,
} from '@kyc/testing';

import { CAMPAIGN_MAX_RECIPIENTS } from '../../src/campaigns/dto/create-campaign.dto';
import { approvedOutbound, ConnectedTenant, connectTenant, events } from './support/engagement-helpers';

/**
 * A campaign sent by the engagement service as its own OS process, killed with SIGKILL in the
 * middle: restarted, it finishes the campaign with every recipient messaged exactly once (the
 * sandbox provider records every message it accepted).
 */
describe('a campaign across a killed engagement process', () => {
  let account: RunningService;
  let engagement: ServiceProcess;
  let sandbox: SandboxMessaging;
  let port: number;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startSandboxMessaging({ reviewDelayMs: 100, statusDelayMs: 100, latencyMs: 15 });
    port = await freePort();
    env = {
      ENGAGEMENT_GRAPH_BASE_URL: sandbox.graphUrl,
      ENGAGEMENT_WORKER_LOCK_MS: '1500',
      ENGAGEMENT_CAMPAIGN_UNCONFIRMED_MS: '20000',
      ENGAGEMENT_CAMPAIGN_CONCURRENCY: '8',
      JOBS_POLL_MS: '100',
    };
    [account, engagement] = await Promise.all([
      startService('account', {
        KAFKA_CONSUMER_GROUP: `account-campaign-${randomBytes(4).toString('hex')}`,
      }),
      startProcess('engagement', port, env),
    ]);
    sandbox.setWebhookUrl(`${engagement.url}/v1/msg/whatsapp/statuses`);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([engagement?.kill('SIGKILL'), account?.close(), sandbox?.stop()]);
    await closeDb();
  });

  const progress = async (api: ApiClient, id: string) => (await api.get(`/v1/msg/campaigns/${id}`)).body;

  it('refuses bad campaigns and sends every recipient exactly once after a restart mid-way', async () => {
    const tenant = await createTenant(account.url, [engagement.url]);
    const t: ConnectedTenant = await connectTenant(new ApiClient(engagement.url, tenant.apiKey), sandbox);
    const outbound = await approvedOutbound(t);
    const total = 400;
    const recipients = Array.from({ length: total }, (_, i) => ({
      phone_country_code: '+57',
      phone_number: `31${String(i).padStart(8, '0')}`,
      var: { name: `Cliente ${i}` },
    }));

    const missingVar = await t.api.postJson('/v1/msg/campaigns', {
      outbound_id: outbound.outbound_id,
      user_authorized: true,
      recipients: [{ phone_country_code: '+57', phone_number: '3100000000' }, recipients[1]],
    });
    expect(missingVar.status).toBe(400);
    expect(missingVar.body.fields).toEqual([expect.objectContaining({ field: 'recipients.0.var.name' })]);
    const badPhone = await t.api.postJson('/v1/msg/campaigns', {
      outbound_id: outbound.outbound_id,
      user_authorized: true,
      recipients: [recipients[0], { phone_country_code: '+57', phone_number: 'x' }],
    });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.fields).toEqual([expect.objectContaining({ field: 'recipients.1.phone_number' })]);
    expect(
      (
        await t.api.postJson('/v1/msg/campaigns', {
          outbound_id: outbound.outbound_id,
          user_authorized: false,
          recipients,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.api.postJson('/v1/msg/campaigns', {
          outbound_id: outbound.outbound_id,
          user_authorized: true,
          recipients: [],
        })
      ).status,
    ).toBe(400);

    const created = await t.api.postJson('/v1/msg/campaigns', {
      outbound_id: outbound.outbound_id,
      user_authorized: true,
      rate: 40,
      recipients,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'processing',
      rate: 40,
      progress: { total, pending: total, sent: 0 },
    });
    const id = created.body.campaign_id;

    await eventually(async () => expect((await progress(t.api, id)).progress.sent).toBeGreaterThan(total / 4), {
      timeoutMs: 120_000,
      intervalMs: 50,
    });
    await engagement.kill('SIGKILL');
    const sentBefore = Number(
      (
        await db().query(
          `SELECT count(*)::int AS n FROM engagement.campaign_recipients WHERE campaign_id = $1 AND status = 'sent'`,
          [id],
        )
      ).rows[0].n,
    );
    expect(sentBefore).toBeLessThan(total);

    engagement = await startProcess('engagement', port, env);
    const done = await eventually(
      async () => {
        const p = await progress(t.api, id);
        expect(p.status).toBe('completed');
        return p;
      },
      // Generous (a loaded machine): in-doubt claims without a status are re-sent only after the window.
      { timeoutMs: 240_000, intervalMs: 250 },
    );
    expect(done.progress).toMatchObject({ total, sent: total, failed: 0, pending: 0, percent: 100 });

    const delivered = sandbox.messages().filter((m) => m.phone_number_id === t.phoneNumberId);
    const perPhone = new Map<string, number>();
    for (const m of delivered) perPhone.set(m.to, (perPhone.get(m.to) ?? 0) + 1);
    expect(perPhone.size).toBe(total);
    expect([...perPhone.values()].filter((n) => n !== 1)).toEqual([]);
    const sentEvents = (await events(tenant.tenantId, 'engagement.message.sent')).filter((e) => e.campaign_id === id);
    expect(new Set(sentEvents.map((e) => e.phone)).size).toBe(total);
    expect(sentEvents).toHaveLength(total);
  }, 480_000);

  it('accepts a campaign of the largest size and refuses one recipient more', async () => {
    const tenant = await createTenant(account.url, [engagement.url]);
    const t = await connectTenant(new ApiClient(engagement.url, tenant.apiKey), sandbox);
    const outbound = await approvedOutbound(t);
    const recipients = Array.from({ length: CAMPAIGN_MAX_RECIPIENTS + 1 }, (_, i) => ({
      account_id: `acc-${i}`,
      phone_country_code: '+57',
      phone_number: `33${String(i).padStart(8, '0')}`,
      var: { name: `Cliente ${i}` },
    }));
    const tooMany = await t.api.postJson('/v1/msg/campaigns', {
      outbound_id: outbound.outbound_id,
      user_authorized: true,
      recipients,
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.fields).toEqual([expect.objectContaining({ field: 'recipients' })]);

    const largest = await t.api.postJson('/v1/msg/campaigns', {
      outbound_id: outbound.outbound_id,
      user_authorized: true,
      rate: 1,
      recipients: recipients.slice(0, CAMPAIGN_MAX_RECIPIENTS),
    });
    expect(largest.status).toBe(201);
    expect(largest.body.progress.total).toBe(CAMPAIGN_MAX_RECIPIENTS);
    expect((await t.api.post(`/v1/msg/campaigns/${largest.body.campaign_id}/cancel`)).status).toBe(200);
  }, 240_000);

  it('cancels a campaign: nobody left is messaged', async () => {
    const tenant = await createTenant(account.url, [engagement.url]);
    sandbox.setWebhookUrl(`${engagement.url}/v1/msg/whatsapp/statuses`);
    const t = await connectTenant(new ApiClient(engagement.url, tenant.apiKey), sandbox);
    const outbound = await approvedOutbound(t);
    const recipients = Array.from({ length: 200 }, (_, i) => ({
      phone_country_code: '57',
      phone_number: `32${String(i).padStart(8, '0')}`,
      var: { name: 'A' },
    }));
    const created = await t.api.postJson('/v1/msg/campaigns', {
      outbound_id: outbound.outbound_id,
      user_authorized: true,
      rate: 20,
      recipients,
    });
    await eventually(
      async () => expect((await progress(t.api, created.body.campaign_id)).progress.sent).toBeGreaterThan(0),
      { timeoutMs: 120_000 },
    );
    const cancelled = await t.api.post(`/v1/msg/campaigns/${created.body.campaign_id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body.progress.cancelled).toBeGreaterThan(0);
    // Sends already in flight at the cancel finish; nothing else is sent.
    const final = await eventually(
      async () => {
        const p = await progress(t.api, created.body.campaign_id);
        expect(p.progress.pending).toBe(0);
        return p;
      },
      { timeoutMs: 120_000 },
    );
    // No tick of the campaign is left to run: every send it made has returned.
    await eventually(async () => {
      const { rows } = await db().query(
        `SELECT count(*)::int AS n FROM engagement.jobs WHERE dedupe_key LIKE $1 AND status IN ('pending', 'running')`,
        [`campaign:${created.body.campaign_id}:%`],
      );
      expect(rows[0].n).toBe(0);
    });
    const sentToLine = sandbox.messages().filter((m) => m.phone_number_id === t.phoneNumberId).length;
    expect(sentToLine).toBe(final.progress.sent);
    expect(final.progress.sent + final.progress.cancelled + final.progress.pending).toBe(200);
    expect((await t.api.post(`/v1/msg/campaigns/${created.body.campaign_id}/cancel`)).status).toBe(409);
    expect((await t.api.get(`/v1/msg/campaigns/CMP${'0'.repeat(32)}`)).status).toBe(404);
  }, 300_000);
});
