import { eventually } from '@kyc/testing';

import { approvedOutbound, events, marketing } from '../support/engagement-helpers';
import {
  newTenant,
  other,
  outboundCount,
  PHONE,
  QR,
  sandbox,
  t,
  tenantId,
  URL_BUTTON,
  useOutboundsTenants,
} from '../support/outbounds-fixture';

describe('engagement outbounds: lines, outbound acceptance, provider statuses, CRUD and list (sandbox provider)', () => {
  useOutboundsTenants();

  describe('lines and business accounts', () => {
    it('lists the lines synced from the provider at subscription, and the WABA', async () => {
      const lines = await t.api.get('/v1/msg/lines');
      expect(lines.status).toBe(200);
      expect(lines.body).toEqual([
        expect.objectContaining({ waba_line: t.line, phone_number_id: t.phoneNumberId, quality_rating: 'HIGH' }),
      ]);
      const wabas = await t.api.get('/v1/msg/wabas');
      expect(wabas.body).toEqual([expect.objectContaining({ waba_id: t.wabaId, subscribed: true, lines: [t.line] })]);
    });

    it("reads, renames and configures a line by its phone; another tenant's line is 404", async () => {
      const path = `/v1/msg/lines/${encodeURIComponent(t.line)}`;
      expect((await t.api.get(path)).body.waba_line).toBe(t.line);
      const patched = await t.api.request<any>('PATCH', path, { name: 'Ventas' });
      expect(patched.status).toBe(200);
      expect(patched.body.name).toBe('Ventas');
      const configured = await t.api.put(`${path}/config`, { default_flow_id: 'IPF123' });
      expect(configured.body.default_flow_id).toBe('IPF123');
      expect((await t.api.put(`${path}/config`, {})).status).toBe(400);
      expect((await t.api.put(`${path}/config`, { default_flow_id: 'bad id!' })).status).toBe(400);
      expect((await other.api.get(path)).status).toBe(404);
    });

    it('refuses a WABA already linked to another account', async () => {
      const res = await other.api.put('/v1/msg/provider-credentials', {
        access_token: 'x',
        waba_id: t.wabaId,
        app_secret: 'y',
        verify_token: 'z',
      });
      expect(res.status).toBe(409);
      expect(res.body.error_code).toBe('waba_taken');
    });

    it("answers 409 provider_credentials_rejected, not a 5xx, when the provider refuses the account's saved token", async () => {
      const { t: own } = await newTenant();
      const outbound = await own.api.postJson('/v1/msg/outbounds', marketing(own.line));
      expect(outbound.status).toBe(201);
      const saved = await own.api.put('/v1/msg/provider-credentials', {
        access_token: 'not-a-token',
        waba_id: own.wabaId,
        app_secret: sandbox.appSecret,
        verify_token: own.verifyToken,
      });
      expect(saved.status).toBe(200);
      for (const res of [
        await own.api.post('/v1/msg/waba-subscription'),
        await own.api.delete(`/v1/msg/outbounds/${outbound.body.outbound_id}`),
      ]) {
        expect(res.status).toBe(409);
        expect(res.body.error_code).toBe('provider_credentials_rejected');
      }
    });
  });

  describe('outbound acceptance', () => {
    it.each([
      ['QUICK_REPLY,QUICK_REPLY', [QR('Sí'), QR('No')], true],
      ['QUICK_REPLY,QUICK_REPLY,URL,PHONE_NUMBER', [QR('Sí'), QR('No'), URL_BUTTON, PHONE], false],
      ['URL,PHONE_NUMBER,QUICK_REPLY,QUICK_REPLY', [URL_BUTTON, PHONE, QR('Sí'), QR('No')], false],
    ])('accepts the quick-reply grouping %s, in display order', async (_, buttons, desktopVisible) => {
      const withUrl = buttons.some((b) => b.type === 'URL');
      const res = await t.api.postJson(
        '/v1/msg/outbounds',
        marketing(t.line, {
          is_notification: false,
          buttons,
          var: { name: { value: 'Ana' }, ...(withUrl ? { order: { value: '77' } } : {}) },
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body.buttons.map((b: { type: string }) => b.type)).toEqual(buttons.map((b) => b.type));
      expect(res.body).toMatchObject({ status: 'PENDING', quality: 'PENDING', desktop_visible: desktopVisible });
    });

    it('accepts AUTHENTICATION with its predefined text, expiry footer and automatic COPY_CODE button', async () => {
      const res = await t.api.post('/v1/msg/outbounds', {
        outbound_name: 'otp',
        waba_phone_number: t.line,
        category: 'AUTHENTICATION',
        language_code: 'es',
        template_type: 'TEXT',
        is_notification: 'true',
        code_expiration_minutes: '10',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        content: '{{.code}} es tu código de verificación.',
        footer: 'Este código caduca en 10 minutos.',
        buttons: [{ type: 'COPY_CODE', text: 'Copiar código' }],
        variables: ['code'],
      });
      const template = (await (await fetch(`${sandbox.url}/_sandbox/templates`)).json()).data.find(
        (x: { name: string }) => x.name === `${res.body.outbound_id.toLowerCase()}_1`,
      );
      expect(template.components).toEqual([
        { type: 'BODY', add_security_recommendation: false },
        { type: 'FOOTER', code_expiration_minutes: 10 },
        { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copiar código' }] },
      ]);
    });

    it('submits {{.name}} variables to the provider as numbered components with their examples', async () => {
      const res = await t.api.postJson(
        '/v1/msg/outbounds',
        marketing(t.line, {
          header_text: 'Pedido {{.order}}',
          content: 'Hola {{.name}}, tu pedido {{.order}} llega hoy.',
          buttons: [URL_BUTTON],
          var: { name: { value: 'Ana' }, order: { value: '77' } },
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body.variables).toEqual(['order', 'name']);
      const template = (await (await fetch(`${sandbox.url}/_sandbox/templates`)).json()).data.find(
        (x: { name: string }) => x.name === `${res.body.outbound_id.toLowerCase()}_1`,
      );
      expect(template.components).toEqual([
        { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}', example: { header_text: ['77'] } },
        { type: 'BODY', text: 'Hola {{1}}, tu pedido {{2}} llega hoy.', example: { body_text: [['Ana', '77']] } },
        {
          type: 'BUTTONS',
          buttons: [
            {
              type: 'URL',
              text: 'Ver pedido',
              url: 'https://shop.example.com/orders/{{1}}',
              example: ['https://shop.example.com/orders/77'],
            },
          ],
        },
      ]);
    });
  });

  describe('statuses from the provider', () => {
    it('moves PENDING to APPROVED on the provider review webhook, with an outbound.status-changed event', async () => {
      const approved = await approvedOutbound(t);
      expect(approved.quality).toBe('HIGH');
      const changes = await eventually(async () => {
        const e = (await events(tenantId, 'engagement.outbound.status-changed')).filter(
          (x) => x.outbound_id === approved.outbound_id,
        );
        expect(e).toHaveLength(1);
        return e;
      });
      expect(changes[0]).toMatchObject({ status: 'APPROVED', previous_status: 'PENDING' });
    });

    it('moves PENDING to REJECTED with the provider reason, and a REJECTED outbound cannot be sent', async () => {
      const res = await t.api.postJson(
        '/v1/msg/outbounds',
        marketing(t.line, { content: 'Oferta {{.name}} sandbox-reject hoy' }),
      );
      const got = await eventually(async () => {
        const o = await t.api.get(`/v1/msg/outbounds/${res.body.outbound_id}`);
        expect(o.body.status).toBe('REJECTED');
        return o.body;
      });
      expect(got.status_reason).toBe('ABUSIVE_CONTENT');
      const send = await t.api.post('/v1/msg/outbounds/send', {
        phone_country_code: '+57',
        phone_number: '3001234567',
        outbound_id: got.outbound_id,
        user_authorized: 'true',
        'var.name': 'Ana',
      });
      expect(send.status).toBe(409);
      expect(send.body.error_code).toBe('outbound_not_sendable');
    });
  });

  describe('outbound CRUD and list', () => {
    it('updates an outbound: submitted again and PENDING; deletes it at the provider', async () => {
      const approved = await approvedOutbound(t);
      const updated = await t.api.request(
        'PUT',
        `/v1/msg/outbounds/${approved.outbound_id}`,
        marketing(t.line, { content: 'Nuevo {{.name}} texto.' }),
        {
          'content-type': 'application/json',
        },
      );
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ status: 'PENDING', content: 'Nuevo {{.name}} texto.' });
      await eventually(async () =>
        expect((await t.api.get(`/v1/msg/outbounds/${approved.outbound_id}`)).body.status).toBe('APPROVED'),
      );
      const names = (await (await fetch(`${sandbox.url}/_sandbox/templates`)).json()).data.map(
        (x: { name: string }) => x.name,
      );
      expect(names).toContain(`${approved.outbound_id.toLowerCase()}_2`);
      expect(names).not.toContain(`${approved.outbound_id.toLowerCase()}_1`);
      const invalid = await t.api.request(
        'PUT',
        `/v1/msg/outbounds/${approved.outbound_id}`,
        marketing(t.line, { content: undefined }),
        {
          'content-type': 'application/json',
        },
      );
      expect(invalid.status).toBe(400);
      expect((await t.api.delete(`/v1/msg/outbounds/${approved.outbound_id}`)).status).toBe(200);
      expect((await t.api.get(`/v1/msg/outbounds/${approved.outbound_id}`)).status).toBe(404);
      const after = (await (await fetch(`${sandbox.url}/_sandbox/templates`)).json()).data.map(
        (x: { name: string }) => x.name,
      );
      expect(after).not.toContain(`${approved.outbound_id.toLowerCase()}_2`);
    });

    it('lists with filters, OTB search, the pagination flag, and 404 for an empty plain list', async () => {
      const utility = await approvedOutbound(t, {
        category: 'UTILITY',
        outbound_name: 'factura mensual',
        default_flow_id: 'IPF-billing',
      });
      const byId = await t.api.get(`/v1/msg/outbounds?search=${utility.outbound_id}`);
      expect(byId.status).toBe(200);
      expect(byId.body.map((o: { outbound_id: string }) => o.outbound_id)).toEqual([utility.outbound_id]);
      expect((await t.api.get('/v1/msg/outbounds?search=factura')).body).toHaveLength(1);
      expect(
        (await t.api.get('/v1/msg/outbounds?category=UTILITY')).body.every(
          (o: { category: string }) => o.category === 'UTILITY',
        ),
      ).toBe(true);
      expect((await t.api.get('/v1/msg/outbounds?default_flow_id=IPF-billing')).body).toHaveLength(1);
      expect(
        (await t.api.get('/v1/msg/outbounds?status=REJECTED')).body.every(
          (o: { status: string }) => o.status === 'REJECTED',
        ),
      ).toBe(true);
      expect(
        (await t.api.get(`/v1/msg/outbounds?line=${encodeURIComponent(t.line)}&category=UTILITY`)).body,
      ).toHaveLength(1);
      expect((await t.api.get('/v1/msg/outbounds?status=DISABLED')).status).toBe(404);
      expect((await t.api.get('/v1/msg/outbounds?status=NOPE')).status).toBe(400);

      const paged = await t.api.get('/v1/msg/outbounds?paginated=true');
      expect(paged.status).toBe(200);
      expect(paged.body.outbounds.length).toBeGreaterThan(0);
      expect(paged.body.self).toContain('paginated=true');
      const all: string[] = [];
      let page = paged.body;
      for (;;) {
        all.push(...page.outbounds.map((o: { outbound_id: string }) => o.outbound_id));
        if (!page.next) break;
        page = (await t.api.get(new URL(page.next).pathname + new URL(page.next).search)).body;
      }
      expect(new Set(all).size).toBe(await outboundCount());
      const empty = await t.api.get('/v1/msg/outbounds?paginated=true&status=DISABLED');
      expect(empty.status).toBe(200);
      expect(empty.body.outbounds).toEqual([]);
    });
  });
});
