import { db, eventually } from '@kyc/testing';

import { approvedOutbound, events } from '../support/engagement-helpers';
import { other, QR, sandbox, t, tenantId, useOutboundsTenants } from '../support/outbounds-fixture';

describe('engagement outbounds: sends, delivery statuses and the flow they start (sandbox provider)', () => {
  useOutboundsTenants();

  describe('send outbound', () => {
    let notification: any;
    let flowStarter: any;
    beforeAll(async () => {
      [notification, flowStarter] = await Promise.all([
        approvedOutbound(t),
        approvedOutbound(t, { is_notification: false, buttons: [QR('Empezar'), QR('Luego')] }),
      ]);
    });
    const send = (overrides: Record<string, unknown>) =>
      t.api.post('/v1/msg/outbounds/send', {
        phone_country_code: '+57',
        phone_number: '3001234567',
        outbound_id: notification.outbound_id,
        user_authorized: 'true',
        'var.name': 'Ana',
        ...overrides,
      });
    const messageCount = async () =>
      Number(
        (await db().query(`SELECT count(*)::int AS n FROM engagement.messages WHERE tenant_id = $1`, [tenantId]))
          .rows[0].n,
      );

    it.each([
      ['a missing variable value', { 'var.name': undefined }, 'var.name'],
      ['a value for a variable the outbound does not have', { 'var.extra': 'x' }, 'var.extra'],
      ['user_authorized false', { user_authorized: 'false' }, 'user_authorized'],
      ['user_authorized missing', { user_authorized: undefined }, 'user_authorized'],
      ['a flow id on a notification', { flow_id: 'IPF1' }, 'flow_id'],
      ['an account id outside [a-zA-Z0-9_.-]', { account_id: 'ana perez' }, 'account_id'],
      ['a phone number with letters', { phone_number: '300abc' }, 'phone_number'],
      ['a missing country code', { phone_country_code: undefined }, 'phone_country_code'],
      ['an outbound id that is not one', { outbound_id: 'nope' }, 'outbound_id'],
    ])('refuses %s', async (_, overrides, field) => {
      const before = await messageCount();
      const res = await send(overrides);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(await messageCount()).toBe(before);
    });

    it('refuses a flow-starting outbound without a flow id', async () => {
      const res = await send({ outbound_id: flowStarter.outbound_id });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual([expect.objectContaining({ field: 'flow_id' })]);
    });

    it("answers 404 for an unknown or another tenant's outbound", async () => {
      expect((await send({ outbound_id: `OTB${'0'.repeat(32)}` })).status).toBe(404);
      const res = await other.api.post('/v1/msg/outbounds/send', {
        phone_country_code: '57',
        phone_number: '3001234567',
        outbound_id: notification.outbound_id,
        user_authorized: 'true',
        'var.name': 'Ana',
      });
      expect(res.status).toBe(404);
    });

    it('sends through the provider, then follows its statuses forward to read; the user replies with the activation text and the flow starts', async () => {
      const res = await send({
        outbound_id: flowStarter.outbound_id,
        flow_id: 'IPF-onboarding',
        account_id: 'user_1',
        phone_number: '3005550001',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        message_id: expect.stringMatching(/^MSG/),
        status: 'accepted',
        phone: '+573005550001',
      });
      const recorded = (await (await fetch(`${sandbox.url}/_sandbox/messages?to=573005550001`)).json()).data;
      expect(recorded).toHaveLength(1);
      expect(recorded[0].body.template).toEqual({
        name: `${flowStarter.outbound_id.toLowerCase()}_1`,
        language: { code: 'es' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }],
      });
      await eventually(
        async () => expect((await t.api.get(`/v1/msg/messages/${res.body.message_id}`)).body.status).toBe('read'),
        {
          timeoutMs: 10_000,
        },
      );
      // The sandbox posts sent, delivered and read 60 ms apart, each its own webhook, and their jobs
      // may run side by side: a status that arrives after a later one is not a move (none goes back),
      // so one may be skipped. Every event moves the message on from the one before.
      const moves = (await events(tenantId, 'engagement.message.status-changed'))
        .filter((e) => e.message_id === res.body.message_id)
        .map((e) => [e.previous_status, e.status]);
      expect(moves[0]?.[0]).toBe('accepted');
      expect(moves.at(-1)?.[1]).toBe('read');
      const order = ['accepted', 'sent', 'delivered', 'read'];
      moves.forEach(([from, to], i) => {
        if (i > 0) expect(from).toBe(moves[i - 1][1]);
        expect(order.indexOf(to)).toBeGreaterThan(order.indexOf(from));
      });
      expect(
        (await events(tenantId, 'engagement.message.sent')).find((e) => e.message_id === res.body.message_id),
      ).toMatchObject({
        outbound_id: flowStarter.outbound_id,
        account_id: 'user_1',
        flow_id: 'IPF-onboarding',
      });

      const inbound = await t.api.post('/v1/msg/inbounds', {
        flow_id: 'IPF-welcome',
        activation_message: 'Hola quiero validarme',
        waba_phone_number: t.line,
      });
      expect(inbound.status).toBe(201);
      await fetch(`${sandbox.url}/_sandbox/reply`, {
        method: 'POST',
        body: JSON.stringify({ phone_number_id: t.phoneNumberId, from: '573005550001', text: 'Hola quiero validarme' }),
      });
      const started = await eventually(async () => {
        const e = await events(tenantId, 'engagement.flow.started');
        expect(e).toHaveLength(1);
        return e[0];
      });
      expect(started).toEqual({
        inbound_flow_id: inbound.body.inbound_flow_id,
        flow_id: 'IPF-welcome',
        line: t.line,
        phone: '+573005550001',
      });
      expect((await events(tenantId, 'engagement.message.received')).map((e) => e.text)).toContain(
        'Hola quiero validarme',
      );

      const finished = await t.api.post('/v1/msg/finish-msgapp-session', {
        waba_phone_number: t.line,
        phone_number: '+573005550001',
      });
      expect(finished.status).toBe(200);
      expect(finished.body).toMatchObject({ flow_id: 'IPF-welcome', status: 'finished' });
      expect(
        (
          await t.api.post('/v1/msg/finish-msgapp-session', {
            waba_phone_number: t.line,
            phone_number: '+573005550001',
          })
        ).status,
      ).toBe(404);
    });

    it('reports a failed delivery', async () => {
      const res = await send({ phone_number: '3000009999' });
      expect(res.status).toBe(201);
      await eventually(async () => {
        const m = await t.api.get(`/v1/msg/messages/${res.body.message_id}`);
        expect(m.body).toMatchObject({ status: 'failed', error: '131026 Message undeliverable' });
      });
    });
  });
});
