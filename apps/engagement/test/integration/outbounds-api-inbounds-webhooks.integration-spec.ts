import { eventually } from '@kyc/testing';

import { events, messagesWebhook, webhookSignature } from './support/engagement-helpers';
import { engagement, other, sandbox, t, tenantId, useOutboundsSuite } from './support/outbounds-fixture';

describe('engagement outbounds: inbound flows and provider webhooks (sandbox provider)', () => {
  useOutboundsSuite('account-engagement-outbounds-inbounds-webhooks-spec');

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
      await new Promise((r) => setTimeout(r, 500));
      expect(
        (await events(tenantId, 'engagement.message.received')).filter((e) => e.text === 'mensaje duplicado'),
      ).toHaveLength(1);
    });
  });
});
