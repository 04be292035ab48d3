import { createHash } from 'node:crypto';

import { db, eventually } from '@kyc/testing';

import {
  approvedOutbound,
  ConnectedTenant,
  connectTenant,
  events,
  messagesWebhook,
  webhookSignature,
} from '../support/engagement-helpers';
import { engagement, newTenant, other, sandbox, t, tenantId, useOutboundsTenants } from '../support/outbounds-fixture';

describe('engagement outbounds: inbound flows and provider webhooks (sandbox provider)', () => {
  useOutboundsTenants();

  describe('inbound flows', () => {
    it('creates with an activation link (text URL-encoded, %20 for spaces), regenerated on update', async () => {
      const created = await t.api.post('/v1/msg/inbounds', {
        flow_id: 'IPF1',
        activation_message: 'Quiero mi crédito',
        waba_phone_number: t.line,
      });
      expect(created.status).toBe(201);
      const digits = t.line.slice(1);
      expect(created.body.activation_link).toBe(`https://wa.me/${digits}?text=Quiero%20mi%20cr%C3%A9dito`);
      const id = created.body.inbound_flow_id;
      const updated = await t.api.post(`/v1/msg/inbounds/${id}`, {
        flow_id: 'IPF2',
        activation_message: 'Hola banco',
        waba_phone_number: t.line,
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        flow_id: 'IPF2',
        activation_link: `https://wa.me/${digits}?text=Hola%20banco`,
      });
      expect((await t.api.get(`/v1/msg/inbounds/${id}`)).body.activation_link).toBe(
        `https://wa.me/${digits}?text=Hola%20banco`,
      );
      const list = await t.api.get('/v1/msg/inbounds');
      expect(list.body.inbounds.map((i: { inbound_flow_id: string }) => i.inbound_flow_id)).toContain(id);
      expect((await other.api.get(`/v1/msg/inbounds/${id}`)).status).toBe(404);
      expect((await t.api.delete(`/v1/msg/inbounds/${id}`)).status).toBe(200);
      expect((await t.api.get(`/v1/msg/inbounds/${id}`)).status).toBe(404);
    });

    it('keeps activation messages unique per line', async () => {
      const body = { flow_id: 'IPF1', activation_message: 'Unico', waba_phone_number: t.line };
      expect((await t.api.post('/v1/msg/inbounds', body)).status).toBe(201);
      const dup = await t.api.post('/v1/msg/inbounds', { ...body, flow_id: 'IPF9' });
      expect(dup.status).toBe(409);
      expect(dup.body.fields).toEqual([expect.objectContaining({ field: 'activation_message' })]);
      expect((await other.api.post('/v1/msg/inbounds', { ...body, waba_phone_number: other.line })).status).toBe(201);
    });

    it.each([
      ['flow_id', { flow_id: undefined }],
      ['flow_id', { flow_id: 'no spaces allowed' }],
      ['activation_message', { activation_message: undefined }],
      ['activation_message', { activation_message: '   ' }],
      ['waba_phone_number', { waba_phone_number: undefined }],
      ['waba_phone_number', { waba_phone_number: '+573999999998' }],
    ])('refuses a missing or invalid %s', async (field, overrides) => {
      const res = await t.api.post('/v1/msg/inbounds', {
        flow_id: 'IPF1',
        activation_message: 'Otro',
        waba_phone_number: t.line,
        ...overrides,
      });
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    });
  });

  describe('provider webhooks', () => {
    const hook = `/v1/msg/whatsapp/statuses`;
    const body = (text: string, id: string) =>
      messagesWebhook(t, {
        messages: [{ from: '573005550099', id, timestamp: '1', type: 'text', text: { body: text } }],
      });
    const post = (raw: string, signature?: string, provider = 'whatsapp') =>
      fetch(`${engagement.url}/v1/msg/${provider}/statuses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) },
        body: raw,
      });
    const sign = (raw: string, secret = sandbox.appSecret) => webhookSignature(raw, secret);

    it('answers the verification handshake with the challenge for a known verify token only', async () => {
      const ok = await fetch(
        `${engagement.url}${hook}?hub.mode=subscribe&hub.verify_token=${t.verifyToken}&hub.challenge=1158201444`,
      );
      expect(ok.status).toBe(200);
      expect(await ok.text()).toBe('1158201444');
      const bad = await fetch(`${engagement.url}${hook}?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`);
      expect(bad.status).toBe(403);
    });

    it('refuses a missing or wrong signature, a signature over other bytes, and an unknown provider', async () => {
      const raw = body('hola', 'wamid.sig-test');
      expect((await post(raw)).status).toBe(401);
      expect((await post(raw, sign(raw, 'another secret'))).status).toBe(401);
      expect((await post(raw, sign(raw.replace('hola', 'chao')))).status).toBe(401);
      expect((await post(raw, sign(raw), 'telegram')).status).toBe(404);
      expect((await post('not json', sign('not json'))).status).toBe(400);
    });

    it('processes a webhook delivered twice exactly once', async () => {
      const raw = body('mensaje duplicado', 'wamid.dup-test');
      for (let i = 0; i < 2; i++) expect((await post(raw, sign(raw))).status).toBe(200);
      await eventually(async () =>
        expect(
          (await events(tenantId, 'engagement.message.received')).filter((e) => e.text === 'mensaje duplicado'),
        ).toHaveLength(1),
      );
      // Both deliveries recorded one processing job (same body, same digest); once it has finished,
      // nothing else can process the webhook.
      const digest = createHash('sha256').update(raw).digest('hex');
      await eventually(async () => {
        const { rows } = await db().query(`SELECT status FROM engagement.jobs WHERE dedupe_key = $1`, [`wa:${digest}`]);
        expect(rows).toEqual([{ status: 'completed' }]);
      });
      expect(
        (await events(tenantId, 'engagement.message.received')).filter((e) => e.text === 'mensaje duplicado'),
      ).toHaveLength(1);
    });
  });

  /**
   * Tenant B signs webhooks with its own WABA and app secret (the provider would accept them: B
   * owns that account) and names tenant A's messages in them. Nothing of A may change: a
   * webhook reaches only the messages, campaign recipients and chats of the tenant owning the
   * WABA that signed it. A's own statuses are held meanwhile (the sandbox's webhooks go to a
   * route that answers 404, so it retries them), so A's message stays where the attack finds it.
   */
  describe('tenant scope of provider webhooks', () => {
    const postRaw = (raw: string) =>
      fetch(`${engagement.url}/v1/msg/whatsapp/statuses`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': webhookSignature(raw, sandbox.appSecret),
        },
        body: raw,
      }).then((res) => ({ status: res.status, digest: createHash('sha256').update(raw).digest('hex') }));
    const post = (from: ConnectedTenant, value: Record<string, unknown>) => postRaw(messagesWebhook(from, value));
    /** Waits until the service processed a webhook (its statuses applied or dropped). */
    const processed = (digest: string) =>
      eventually(
        async () => {
          const { rows } = await db().query(
            `SELECT processed_at FROM engagement.webhook_events WHERE digest = $1 AND processed_at IS NOT NULL`,
            [digest],
          );
          expect(rows).toHaveLength(1);
        },
        { timeoutMs: 20_000 },
      );
    const holdStatuses = () => sandbox.setWebhookUrl(`${engagement.url}/v1/msg/held/statuses`);
    const releaseStatuses = () => sandbox.setWebhookUrl(`${engagement.url}/v1/msg/whatsapp/statuses`);
    const failed = (extra: Record<string, unknown>) => ({
      recipient_id: '573001112222',
      status: 'failed',
      timestamp: '1',
      errors: [{ code: 131026, title: 'forged by another tenant' }],
      ...extra,
    });
    let outbound: any;
    beforeAll(async () => {
      outbound = await approvedOutbound(t);
    });
    afterEach(releaseStatuses);

    it("cannot fail another tenant's message, named by our reference or by the provider's id", async () => {
      holdStatuses();
      const sent = await t.api.post('/v1/msg/outbounds/send', {
        phone_country_code: '+57',
        phone_number: '3001112222',
        outbound_id: outbound.outbound_id,
        user_authorized: 'true',
        'var.name': 'Ana',
      });
      expect(sent.status).toBe(201);
      const messageId: string = sent.body.message_id;
      const {
        rows: [{ provider_message_id: providerId }],
      } = await db().query(`SELECT provider_message_id FROM engagement.messages WHERE id = $1`, [messageId]);
      const byReference = await post(other, {
        statuses: [failed({ id: 'wamid.forged-1', biz_opaque_callback_data: messageId })],
      });
      const byProviderId = await post(other, { statuses: [failed({ id: providerId })] });
      expect([byReference.status, byProviderId.status]).toEqual([200, 200]);
      await Promise.all([processed(byReference.digest), processed(byProviderId.digest)]);
      const message = await t.api.get(`/v1/msg/messages/${messageId}`);
      expect(message.body).toMatchObject({ status: 'accepted' });
      expect(message.body.error ?? null).toBeNull();
      releaseStatuses();
      await eventually(async () => expect((await t.api.get(`/v1/msg/messages/${messageId}`)).body.status).toBe('read'));
      const moves = (await events(tenantId, 'engagement.message.status-changed')).filter(
        (e) => e.message_id === messageId,
      );
      // The held statuses are retried each on its own (read may come first): only A's own ones moved it.
      expect(moves.map((e) => e.status)).not.toContain('failed');
      expect(moves.map((e) => e.status)).toContain('read');
    });

    it("cannot pull another tenant's inbound message into its own chats", async () => {
      const wamid = `wamid.a-private-${Date.now()}`;
      const own = await post(t, {
        messages: [
          { from: '573005550123', id: wamid, timestamp: '1', type: 'text', text: { body: 'mi clave es 4321' } },
        ],
      });
      expect(own.status).toBe(200);
      await processed(own.digest);
      const {
        rows: [{ id: messageId }],
      } = await db().query(`SELECT id FROM engagement.messages WHERE provider_message_id = $1`, [wamid]);
      // B replays the provider's id of A's message as if one of its users had written it.
      const replay = await post(other, {
        messages: [{ from: '573005550123', id: wamid, timestamp: '1', type: 'text', text: { body: 'hola' } }],
      });
      expect(replay.status).toBe(200);
      await processed(replay.digest);
      const { rows } = await db().query(
        `SELECT a.tenant_id, a.text FROM engagement.chat_activities a WHERE a.message_id = $1 AND a.activity_type = 'message'`,
        [messageId],
      );
      expect(rows).toEqual([{ tenant_id: tenantId, text: 'mi clave es 4321' }]);
    });

    it("cannot change another tenant's outbound through the business account that tenant left", async () => {
      const [a, b] = await Promise.all([newTenant(), newTenant()]);
      const approved = await approvedOutbound(a.t);
      const {
        rows: [{ provider_name: templateName }],
      } = await db().query(`SELECT provider_name FROM engagement.outbounds WHERE id = $1`, [approved.outbound_id]);
      const left = a.t.wabaId;
      await connectTenant(a.t.api, sandbox); // A moves to a new business account
      const linked = await b.t.api.put('/v1/msg/provider-credentials', {
        access_token: sandbox.accessToken,
        waba_id: left,
        app_secret: sandbox.appSecret,
        verify_token: 'vt-taken-over',
      });
      expect(linked.status).toBe(200);
      const raw = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: left,
            changes: [
              {
                field: 'message_template_status_update',
                value: { event: 'REJECTED', message_template_name: templateName, reason: 'ABUSIVE_CONTENT' },
              },
              {
                field: 'message_template_quality_update',
                value: { message_template_name: templateName, new_quality_score: 'RED' },
              },
            ],
          },
        ],
      });
      const attack = await postRaw(raw);
      expect(attack.status).toBe(200);
      await processed(attack.digest);
      expect((await a.t.api.get(`/v1/msg/outbounds/${approved.outbound_id}`)).body).toMatchObject({
        status: 'APPROVED',
      });
    });
  });
});
