import { createHmac } from 'node:crypto';

import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  RunningService,
  SandboxMessaging,
  startInProcess,
  startSandboxMessaging,
  startService,
} from '@kyc/testing';

import { engagementService } from '../../src/app.module';
import { approvedOutbound, ConnectedTenant, connectTenant, events, marketing } from './support/engagement-helpers';

const QR = (text: string) => ({ type: 'QUICK_REPLY', text });
const URL_BUTTON = { type: 'URL', text: 'Ver pedido', url: 'https://shop.example.com/orders/{{.order}}' };
const PHONE = { type: 'PHONE_NUMBER', text: 'Llamar', phone_number: '+573001112233' };
const COPY = { type: 'COPY_CODE', text: '' };

describe('engagement: lines, outbounds, sends, inbound flows and provider webhooks (sandbox provider)', () => {
  let account: RunningService;
  let engagement: RunningService;
  let sandbox: SandboxMessaging;
  let t: ConnectedTenant;
  let tenantId: string;
  let other: ConnectedTenant;

  beforeAll(async () => {
    sandbox = await startSandboxMessaging({ reviewDelayMs: 150, statusDelayMs: 60 });
    [account, engagement] = await Promise.all([
      startService('account', { KAFKA_CONSUMER_GROUP: 'account-engagement-spec' }),
      startInProcess('engagement', engagementService, {
        ENGAGEMENT_GRAPH_BASE_URL: sandbox.graphUrl,
        ENGAGEMENT_MSGAPP_LINK_URL: 'https://wa.me',
        JOBS_POLL_MS: '50',
      }),
    ]);
    sandbox.setWebhookUrl(`${engagement.url}/v1/msg/whatsapp/statuses`);
    const [a, b] = await Promise.all([
      createTenant(account.url, [engagement.url]),
      createTenant(account.url, [engagement.url]),
    ]);
    tenantId = a.tenantId;
    t = await connectTenant(new ApiClient(engagement.url, a.apiKey), sandbox);
    other = await connectTenant(new ApiClient(engagement.url, b.apiKey), sandbox);
  });

  afterAll(async () => {
    await Promise.all([engagement?.close(), account?.close(), sandbox?.stop()]);
    await closeDb();
  });

  const outboundCount = async () =>
    Number(
      (await db().query(`SELECT count(*)::int AS n FROM engagement.outbounds WHERE tenant_id = $1`, [tenantId])).rows[0]
        .n,
    );

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
  });

  describe('outbound rules: every rule refused, nothing stored', () => {
    const long = (n: number) => 'x'.repeat(n);
    const auth = { category: 'AUTHENTICATION', content: undefined, var: undefined };
    const cases: [string, Record<string, unknown>, string][] = [
      ['outbound_name missing', { outbound_name: undefined }, 'outbound_name'],
      ['outbound_name over 512', { outbound_name: long(513) }, 'outbound_name'],
      ['waba_phone_number not a line of the account', { waba_phone_number: '+573999999999' }, 'waba_phone_number'],
      ['waba_phone_number not a phone', { waba_phone_number: 'abc' }, 'waba_phone_number'],
      ['category outside the enum', { category: 'PROMO' }, 'category'],
      ['language_code outside the enum', { language_code: 'fr' }, 'language_code'],
      ['template_type outside the enum', { template_type: 'AUDIO' }, 'template_type'],
      ['is_notification not a boolean', { is_notification: 'maybe' }, 'is_notification'],
      ['content over 1024', { content: long(1025), var: undefined }, 'content'],
      ['content missing for MARKETING', { content: undefined, var: undefined }, 'content'],
      ['content with a malformed variable', { content: 'Hola {{name}}', var: undefined }, 'content'],
      ['header_text over 60', { header_text: long(61) }, 'header_text'],
      [
        'header_text with two variables',
        { header_text: '{{.a}} {{.b}}', var: { name: { value: 'x' }, a: { value: 'a' }, b: { value: 'b' } } },
        'header_text',
      ],
      ['header_text on a media template', { template_type: 'IMAGE', header_text: 'Hola' }, 'header_text'],
      ['footer over 60', { footer: long(61) }, 'footer'],
      ['footer on AUTHENTICATION', { ...auth, footer: 'x' }, 'footer'],
      ['content on AUTHENTICATION (predefined)', { ...auth, content: 'Tu código {{.code}}' }, 'content'],
      ['header_text on AUTHENTICATION', { ...auth, header_text: 'x' }, 'header_text'],
      ['AUTHENTICATION with a media type', { ...auth, template_type: 'IMAGE', media_id: 'm1' }, 'template_type'],
      ['code_expiration_minutes 0', { ...auth, code_expiration_minutes: 0 }, 'code_expiration_minutes'],
      ['code_expiration_minutes 91', { ...auth, code_expiration_minutes: 91 }, 'code_expiration_minutes'],
      [
        'code_expiration_minutes not an integer',
        { ...auth, code_expiration_minutes: 'ten' },
        'code_expiration_minutes',
      ],
      ['code_expiration_minutes on MARKETING', { code_expiration_minutes: 10 }, 'code_expiration_minutes'],
      ['buttons on AUTHENTICATION', { ...auth, buttons: [QR('Sí')] }, 'buttons'],
      ['IMAGE without media_id', { template_type: 'IMAGE' }, 'media_id'],
      ['TEXT with media_id', { media_id: 'media123' }, 'media_id'],
      ['media_id never uploaded', { template_type: 'IMAGE', media_id: 'media-unknown' }, 'media_id'],
      ['no example for a variable', { var: undefined }, 'var.name'],
      [
        'an example for a variable the outbound does not have',
        { var: { name: { value: 'a' }, other: { value: 'b' } } },
        'var.other',
      ],
      ['an example that is not {value: string}', { var: { name: 'Ana' } }, 'var.name'],
      ['var not an object', { var: 'Ana' }, 'var'],
      ['buttons not an array', { buttons: 'QUICK_REPLY' }, 'buttons'],
      ['11 buttons', { is_notification: false, buttons: Array.from({ length: 11 }, (_, i) => QR(`R${i}`)) }, 'buttons'],
      [
        '3 URL buttons',
        { buttons: [URL_BUTTON, URL_BUTTON, URL_BUTTON], var: { name: { value: 'a' }, order: { value: '1' } } },
        'buttons',
      ],
      ['2 PHONE_NUMBER buttons', { buttons: [PHONE, PHONE] }, 'buttons'],
      [
        '2 COPY_CODE buttons',
        { buttons: [COPY, COPY], var: { name: { value: 'a' }, code: { value: '123' } } },
        'buttons',
      ],
      [
        'COPY_CODE on UTILITY',
        { category: 'UTILITY', buttons: [COPY], var: { name: { value: 'a' }, code: { value: '123' } } },
        'buttons',
      ],
      [
        'COPY_CODE example over 15',
        { buttons: [COPY], var: { name: { value: 'a' }, code: { value: long(16) } } },
        'var.code',
      ],
      ['QUICK_REPLY on a notification', { is_notification: true, buttons: [QR('Sí')] }, 'buttons'],
      ['button text over 25', { is_notification: false, buttons: [QR(long(26))] }, 'buttons[0].text'],
      ['button text missing', { is_notification: false, buttons: [{ type: 'QUICK_REPLY' }] }, 'buttons[0].text'],
      [
        'COPY_CODE with a text',
        { buttons: [{ type: 'COPY_CODE', text: 'Copiar' }], var: { name: { value: 'a' }, code: { value: '1' } } },
        'buttons[0].text',
      ],
      ['button type outside the enum', { buttons: [{ type: 'CALL', text: 'x' }] }, 'buttons[0].type'],
      ['URL button without url', { buttons: [{ type: 'URL', text: 'Ver' }] }, 'buttons[0].url'],
      [
        'URL over 2000',
        { buttons: [{ type: 'URL', text: 'Ver', url: `https://a.example.com/${long(2000)}` }] },
        'buttons[0].url',
      ],
      [
        'URL with another scheme',
        { buttons: [{ type: 'URL', text: 'Ver', url: 'ftp://files.example.com/a' }] },
        'buttons[0].url',
      ],
      ['URL without a host', { buttons: [{ type: 'URL', text: 'Ver', url: 'https://' }] }, 'buttons[0].url'],
      [
        'URL with two variables',
        { buttons: [{ type: 'URL', text: 'Ver', url: 'https://a.example.com/{{.x}}/{{.y}}' }] },
        'buttons[0].url',
      ],
      [
        'URL variable not at the end',
        { buttons: [{ type: 'URL', text: 'Ver', url: 'https://a.example.com/{{.x}}/detail' }] },
        'buttons[0].url',
      ],
      [
        'PHONE_NUMBER without phone_number',
        { buttons: [{ type: 'PHONE_NUMBER', text: 'Llamar' }] },
        'buttons[0].phone_number',
      ],
      [
        'PHONE_NUMBER over 20',
        { buttons: [{ ...PHONE, phone_number: '+57 300 111 2233 4455 6' }] },
        'buttons[0].phone_number',
      ],
      [
        'grouping QUICK_REPLY,URL,QUICK_REPLY',
        {
          is_notification: false,
          buttons: [QR('a'), URL_BUTTON, QR('b')],
          var: { name: { value: 'a' }, order: { value: '1' } },
        },
        'buttons',
      ],
      [
        'grouping URL,QUICK_REPLY,URL',
        {
          is_notification: false,
          buttons: [URL_BUTTON, QR('a'), URL_BUTTON],
          var: { name: { value: 'a' }, order: { value: '1' } },
        },
        'buttons',
      ],
    ];

    it.each(cases)('refuses %s', async (_, overrides, field) => {
      const before = await outboundCount();
      const res = await t.api.postJson('/v1/msg/outbounds', marketing(t.line, overrides));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 400, error_code: 'validation_failed' });
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(await outboundCount()).toBe(before);
    });

    it('refuses a header file of the wrong type for the template', async () => {
      const video = await t.api.postJson('/v1/msg/media', {
        waba_phone_number: t.line,
        media_type: 'VIDEO',
        mime_type: 'video/mp4',
        file: Buffer.from('fake mp4').toString('base64'),
      });
      expect(video.status).toBe(201);
      const res = await t.api.postJson(
        '/v1/msg/outbounds',
        marketing(t.line, { template_type: 'IMAGE', media_id: video.body.media_id }),
      );
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual([expect.objectContaining({ field: 'media_id' })]);
    });
  });

  describe('media upload', () => {
    const upload = (overrides: Record<string, unknown>) =>
      t.api.postJson('/v1/msg/media', {
        waba_phone_number: t.line,
        media_type: 'IMAGE',
        mime_type: 'image/png',
        file: Buffer.from('png bytes').toString('base64'),
        ...overrides,
      });

    it('uploads an image through the provider and uses it in an IMAGE outbound', async () => {
      const media = await upload({});
      expect(media.status).toBe(201);
      expect(media.body).toMatchObject({ media_type: 'IMAGE', mime_type: 'image/png', size_bytes: 9 });
      const created = await t.api.postJson(
        '/v1/msg/outbounds',
        marketing(t.line, { template_type: 'IMAGE', media_id: media.body.media_id }),
      );
      expect(created.status).toBe(201);
      expect(created.body.media_id).toBe(media.body.media_id);
    });

    it.each([
      ['an IMAGE that is not JPEG or PNG', { mime_type: 'image/gif' }, 'mime_type'],
      ['an IMAGE over 5 MB', { file: Buffer.alloc(5 * 1024 * 1024 + 1).toString('base64') }, 'file'],
      ['a VIDEO that is not MP4 or 3GPP', { media_type: 'VIDEO', mime_type: 'video/avi' }, 'mime_type'],
      [
        'a VIDEO over 16 MB',
        { media_type: 'VIDEO', mime_type: 'video/mp4', file: Buffer.alloc(16 * 1024 * 1024 + 1).toString('base64') },
        'file',
      ],
      ['a DOCUMENT with an invalid MIME type', { media_type: 'DOCUMENT', mime_type: 'not a mime' }, 'mime_type'],
      ['a TEXT media type', { media_type: 'TEXT' }, 'media_type'],
      ['a file that is not base64', { file: '%%%' }, 'file'],
    ])('refuses %s', async (_, overrides, field) => {
      const res = await upload(overrides);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
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

    it('sends through the provider, then follows sent, delivered and read; the user replies with the activation text and the flow starts', async () => {
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
      const statuses = (await events(tenantId, 'engagement.message.status-changed'))
        .filter((e) => e.message_id === res.body.message_id)
        .map((e) => e.status);
      expect(statuses).toEqual(['sent', 'delivered', 'read']);
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
      JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: t.wabaId,
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { phone_number_id: t.phoneNumberId },
                  messages: [{ from: '573005550099', id, timestamp: '1', type: 'text', text: { body: text } }],
                },
              },
            ],
          },
        ],
      });
    const post = (raw: string, signature?: string, provider = 'whatsapp') =>
      fetch(`${engagement.url}/v1/msg/${provider}/statuses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) },
        body: raw,
      });
    const sign = (raw: string, secret = sandbox.appSecret) =>
      `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

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
