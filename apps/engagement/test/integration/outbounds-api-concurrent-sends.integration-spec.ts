import { ApiClient, createTenant, db, eventually, RunningService, SandboxMessaging } from '@kyc/testing';

import {
  approvedOutbound,
  ConnectedTenant,
  connectTenant,
  events,
  messagesWebhook,
  webhookSignature,
} from './support/engagement-helpers';
import { useEngagementStack } from './support/engagement-stack';

/**
 * The send path as built for throughput (docs/services/engagement.md, Sending): concurrent sends are
 * stored together, each with its own message and `engagement.message.sent` event; a repeated
 * Idempotency-Key sends nothing twice.
 */
describe('engagement: concurrent and idempotent sends (sandbox provider)', () => {
  const stack = useEngagementStack({ consumerGroup: 'account-engagement-concurrent-sends-spec' });
  let account: RunningService;
  let engagement: RunningService;
  let sandbox: SandboxMessaging;
  let t: ConnectedTenant;
  let tenantId: string;
  let outbound: any;

  beforeAll(async () => {
    ({ account, engagement, sandbox } = stack);
    const tenant = await createTenant(account.url, [engagement.url]);
    tenantId = tenant.tenantId;
    t = await connectTenant(new ApiClient(engagement.url, tenant.apiKey), sandbox);
    outbound = await approvedOutbound(t);
  });

  const send = (phone: string, headers: Record<string, string> = {}) =>
    t.api.post(
      '/v1/msg/outbounds/send',
      {
        phone_country_code: '+57',
        phone_number: phone,
        outbound_id: outbound.outbound_id,
        user_authorized: 'true',
        'var.name': `Cliente ${phone}`,
      },
      headers,
    );
  const atProvider = async (phone: string): Promise<any[]> =>
    (await (await fetch(`${sandbox.url}/_sandbox/messages?to=57${phone}`)).json()).data;
  const storedMessages = async (phones: string[]) =>
    (
      await db().query(
        `SELECT id, phone, status, values, provider_message_id FROM engagement.messages
          WHERE tenant_id = $1 AND phone = ANY($2::text[])`,
        [tenantId, phones.map((p) => `+57${p}`)],
      )
    ).rows;

  it('stores each of many concurrent sends with its own message and sent event, and follows their statuses', async () => {
    const phones = Array.from({ length: 30 }, (_, i) => `31${String(i).padStart(8, '0')}`);
    const answers = await Promise.all(phones.map((p) => send(p)));
    expect(answers.map((a) => a.status)).toEqual(phones.map(() => 201));
    const ids = answers.map((a) => a.body.message_id);
    expect(new Set(ids).size).toBe(phones.length);
    answers.forEach((a, i) => expect(a.body).toMatchObject({ phone: `+57${phones[i]}`, status: 'accepted' }));

    // Each answer is given once its message is stored: every one is there, with its own values.
    const rows = await storedMessages(phones);
    expect(rows).toHaveLength(phones.length);
    for (const [i, phone] of phones.entries()) {
      const row = rows.find((r) => r.id === ids[i]);
      expect(row).toMatchObject({ phone: `+57${phone}`, values: { name: `Cliente ${phone}` } });
      const [recorded] = await atProvider(phone);
      expect(row.provider_message_id).toBe(recorded.id);
    }
    const sent = (await events(tenantId, 'engagement.message.sent')).filter((e) => ids.includes(e.message_id));
    expect(sent.map((e) => e.message_id).sort()).toEqual([...ids].sort());
    for (const e of sent)
      expect(e).toMatchObject({
        outbound_id: outbound.outbound_id,
        phone: rows.find((r) => r.id === e.message_id).phone,
      });

    // The provider's statuses reach every one of them.
    await eventually(async () => expect((await storedMessages(phones)).every((r) => r.status === 'read')).toBe(true), {
      timeoutMs: 20_000,
    });
  });

  it('applies a status the provider reports before the message is stored', async () => {
    const phone = '3209990002';
    const sent = await send(phone);
    expect(sent.status).toBe(201);
    const id = sent.body.message_id;
    await eventually(async () => expect((await storedMessages([phone]))[0].status).toBe('read'), { timeoutMs: 20_000 });
    // The message as it was right after the send, taken away while its next status arrives.
    const [row] = (
      await db().query(`DELETE FROM engagement.messages WHERE id = $1 RETURNING row_to_json(messages.*) AS r`, [id])
    ).rows;
    const stored = { ...row.r, status: 'sent' };
    const raw = messagesWebhook(t, {
      statuses: [
        {
          id: stored.provider_message_id,
          status: 'delivered',
          timestamp: String(Math.floor(Date.now() / 1000)),
          recipient_id: `57${phone}`,
          biz_opaque_callback_data: id,
        },
      ],
    });
    const hook = await fetch(`${engagement.url}/v1/msg/whatsapp/statuses`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': webhookSignature(raw, sandbox.appSecret),
      },
      body: raw,
    });
    expect(hook.status).toBe(200);
    // The webhook's job has run once and found no message for the status: a later run applies it.
    await eventually(async () =>
      expect(
        (
          await db().query(
            `SELECT 1 FROM engagement.jobs WHERE queue = 'whatsapp-webhook' AND status = 'pending' AND last_error IS NOT NULL AND payload::text LIKE $1`,
            [`%${stored.provider_message_id}%`],
          )
        ).rowCount,
      ).toBe(1),
    );
    await db().query(
      `INSERT INTO engagement.messages SELECT * FROM json_populate_record(NULL::engagement.messages, $1::json)`,
      [JSON.stringify(stored)],
    );
    await eventually(async () => expect((await storedMessages([phone]))[0].status).toBe('delivered'), {
      timeoutMs: 20_000,
    });
  });

  it('sends once for a repeated Idempotency-Key: the same answer, one provider message, one stored message', async () => {
    const phone = '3209990001';
    const key = `send-${Date.now()}`;
    const first = await send(phone, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    const again = await send(phone, { 'Idempotency-Key': key });
    expect(again.status).toBe(201);
    expect(again.body.message_id).toBe(first.body.message_id);
    expect(await atProvider(phone)).toHaveLength(1);
    expect(await storedMessages([phone])).toHaveLength(1);
    expect((await events(tenantId, 'engagement.message.sent')).filter((e) => e.phone === `+57${phone}`)).toHaveLength(
      1,
    );
    // Another request without the key is another send.
    expect((await send(phone)).status).toBe(201);
    expect(await atProvider(phone)).toHaveLength(2);
  });
});
