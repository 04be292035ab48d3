import { randomBytes, randomUUID } from 'node:crypto';

import { JobQueueService } from '@kyc/platform';
import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  freePort,
  SandboxMessaging,
  startInProcess,
  startProcess,
  startSandboxMessaging,
  startSmtpSink,
  TestTenant,
} from '@kyc/testing';

import { identityService } from '../../src/app.module';

/**
 * Access links and send-link: a web key bound to the flow, its page link delivered by e-mail
 * (SMTP sink), SMS (identity's sandbox phone provider) or messaging app (an outbound message of
 * the engagement service, running here against the sandbox messaging provider).
 */
describe('identity: process access links and send-link', () => {
  let account: Awaited<ReturnType<typeof startProcess>>;
  let engagement: Awaited<ReturnType<typeof startProcess>>;
  let identity: Awaited<ReturnType<typeof startInProcess>>;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let sandbox: SandboxMessaging;
  let tenant: TestTenant;
  let api: ApiClient;
  let flowId: string;
  let outboundId: string;
  let notificationId: string;
  let linkOnlyId: string;

  const drain = () => identity.app.get(JobQueueService).drain();
  const accessLink = (body: Record<string, unknown>, client = api, flow = flowId) =>
    client.postJson(`/v1/web-integration/${flow}/process-access-link`, body);
  const stored = async () => {
    const { rows } = await db().query(
      `SELECT (SELECT count(*) FROM identity.link_deliveries WHERE tenant_id = $1)::int AS deliveries,
              (SELECT count(*) FROM identity.api_keys WHERE tenant_id = $1)::int AS keys`,
      [tenant.tenantId],
    );
    return rows[0] as { deliveries: number; keys: number };
  };
  const delivered = async (deliveryId: string) => {
    await drain();
    return (await api.get(`/v1/web-integration/link-deliveries/${deliveryId}`)).body;
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    sandbox = await startSandboxMessaging({ reviewDelayMs: 100, statusDelayMs: 50 });
    // One Nest app per process besides identity (TypeORM's default data source is per process).
    const [accountPort, engagementPort] = await Promise.all([freePort(), freePort()]);
    [account, engagement] = await Promise.all([
      startProcess('account', accountPort, { KAFKA_CONSUMER_GROUP: `account-${randomUUID().slice(0, 8)}` }),
      startProcess('engagement', engagementPort, {
        ENGAGEMENT_GRAPH_BASE_URL: sandbox.graphUrl,
        JOBS_POLL_MS: '50',
        KAFKA_CONSUMER_GROUP: `engagement-${randomUUID().slice(0, 8)}`,
      }),
    ]);
    identity = await startInProcess('identity', identityService, {
      JOBS_POLL_MS: '100',
      IDENTITY_SMTP_URL: smtp.url,
      IDENTITY_ENGAGEMENT_URL: engagement.url,
      PUBLIC_URL: 'https://identity.example.test',
    });
    sandbox.setWebhookUrl(`${engagement.url}/v1/msg/whatsapp/statuses`);
    tenant = await createTenant(account.url, [identity.url, engagement.url]);
    api = new ApiClient(identity.url, tenant.apiKey);
    const flow = await api.postJson('/v1/flows', {
      name: 'Linked',
      redirect_url: 'https://example.test/done',
      steps: [{ type: 'form', fields: [{ name: 'first_name', label: 'First name' }] }],
    });
    expect(flow.status).toBe(201);
    flowId = flow.body.flow_id;

    // The tenant's messaging-app line and two approved outbounds (one with a `link` variable).
    const msg = new ApiClient(engagement.url, tenant.apiKey);
    const waba = sandbox.createWaba();
    const verifyToken = `vt-${randomBytes(6).toString('hex')}`;
    expect(
      (
        await msg.put('/v1/msg/provider-credentials', {
          access_token: sandbox.accessToken,
          waba_id: waba.waba_id,
          app_secret: sandbox.appSecret,
          verify_token: verifyToken,
        })
      ).status,
    ).toBe(200);
    const line = (await msg.post('/v1/msg/waba-subscription')).body.lines[0].waba_line;
    const approved = async (content: string, vars: Record<string, string>) => {
      const res = await msg.postJson('/v1/msg/outbounds', {
        outbound_name: `link ${randomBytes(3).toString('hex')}`,
        waba_phone_number: line,
        category: 'UTILITY',
        language_code: 'es',
        template_type: 'TEXT',
        is_notification: true,
        content,
        var: Object.fromEntries(Object.entries(vars).map(([k, value]) => [k, { value }])),
      });
      expect(res.status).toBe(201);
      await eventually(
        async () => expect((await msg.get(`/v1/msg/outbounds/${res.body.outbound_id}`)).body.status).toBe('APPROVED'),
        { timeoutMs: 45_000, intervalMs: 100 },
      );
      return res.body.outbound_id as string;
    };
    [outboundId, notificationId, linkOnlyId] = await Promise.all([
      approved('Hola {{.name}}, verifica tu identidad aquí: {{.link}} Gracias.', {
        name: 'Ana',
        link: 'https://x.test',
      }),
      approved('Hola {{.name}}, te escribiremos pronto.', { name: 'Ana' }),
      approved('Continúa tu verificación aquí: {{.link}} Gracias.', { link: 'https://x.test' }),
    ]);
  });

  afterAll(async () => {
    await identity?.close();
    await Promise.all([engagement?.close(), account?.close()]);
    await Promise.all([smtp?.close(), sandbox?.stop()]);
    await closeDb();
  });

  it('e-mails the page link of a new web key bound to the flow; the key starts the process', async () => {
    const res = await accessLink({ message_channel: 'email', email: 'ana@example.test', lang: 'en' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      flow_id: flowId,
      message_channel: 'email',
      lang: 'en',
      recipient: 'ana@example.test',
      delivery_status: 'queued',
      key_id: expect.stringMatching(/^KEY/),
      expiration_date: expect.any(String),
    });
    expect(res.body.process_url).toBe(
      `https://identity.example.test/web?token=${encodeURIComponent(res.body.api_key)}&lang=en`,
    );
    expect((await delivered(res.body.delivery_id)).delivery_status).toBe('sent');
    const mail = await smtp.waitFor((m) => m.recipients.includes('ana@example.test'));
    expect(mail.subject).toBe('Verify your identity');
    expect(mail.text.replace(/\s+/g, '')).toContain(res.body.process_url);

    const proc = await api.withKey(res.body.api_key).post('/v1/processes');
    expect(proc.status).toBe(201);
    expect(proc.body.flow_id).toBe(flowId);
  });

  it('sends the link by SMS through the sandbox phone provider, in the language asked', async () => {
    const res = await accessLink({ message_channel: 'sms', phone_number: '+573001112233', lang: 'pt' });
    expect(res.status).toBe(201);
    expect((await delivered(res.body.delivery_id)).delivery_status).toBe('sent');
    const sms = (await api.get('/v1/sandbox/phone-messages?phone_number=%2B573001112233')).body.messages;
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ channel: 'sms', delivery_id: res.body.delivery_id });
    expect(sms[0].text).toBe(`Olá. Para continuar, verifique sua identidade neste link: ${res.body.process_url}`);
  });

  it('marks the delivery failed when the phone provider refuses the number', async () => {
    const res = await accessLink({ message_channel: 'sms', phone_number: '+15550001234' });
    const d = await delivered(res.body.delivery_id);
    expect(d).toMatchObject({ delivery_status: 'failed', error: expect.stringContaining('unreachable') });
  });

  it('sends the link as an engagement outbound message, the link in its `link` variable', async () => {
    const res = await accessLink({
      message_channel: 'msgapp',
      phone_number: '+573004445566',
      outbound_id: outboundId,
      'var.name': 'Ana',
    });
    expect(res.status).toBe(201);
    const d = await delivered(res.body.delivery_id);
    expect(d).toMatchObject({ delivery_status: 'sent', message_id: expect.stringMatching(/^MSG/) });
    const sent = sandbox.messages().filter((m) => m.to === '573004445566');
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0].body.template)).toContain(JSON.stringify(res.body.process_url).slice(1, -1));
    const message = await new ApiClient(engagement.url, tenant.apiKey).get(`/v1/msg/messages/${d.message_id}`);
    expect(message.body).toMatchObject({ outbound_id: outboundId, phone: '+573004445566' });
  });

  it('fails the delivery with engagement’s reason when the outbound refuses the variables', async () => {
    const res = await accessLink({
      message_channel: 'msgapp',
      phone_number: '+573004445567',
      outbound_id: notificationId,
      'var.other': 'x',
    });
    const d = await delivered(res.body.delivery_id);
    expect(d.delivery_status).toBe('failed');
    expect(d.error).toContain('400');
  });

  describe('send-link', () => {
    it('sends the link of a process by messaging app with the key that created it', async () => {
      const link = await accessLink({ message_channel: 'email', email: 'bo@example.test' });
      const web = api.withKey(link.body.api_key);
      const proc = await web.post('/v1/processes');
      const body = {
        message_channel: 'msgapp',
        lang: 'es',
        phone_country_code: '+57',
        phone_number: '3007778899',
        outbound_id: linkOnlyId,
      };
      expect((await api.postJson(`/v1/processes/${proc.body.process_id}/send-link`, body)).body).toMatchObject({
        code: 403,
        error_code: 'not_process_key',
      });
      const res = await web.postJson(`/v1/processes/${proc.body.process_id}/send-link`, body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ process_id: proc.body.process_id, recipient: '+573007778899' });
      expect((await delivered(res.body.delivery_id)).delivery_status).toBe('sent');
      const sent = sandbox.messages().filter((m) => m.to === '573007778899');
      expect(JSON.stringify(sent[0].body.template)).toContain(encodeURIComponent(link.body.api_key));
    });

    it.each([
      ['message_channel', { message_channel: 'email' }],
      ['lang', { lang: 'EN' }],
      ['lang', { lang: undefined }],
      ['phone_country_code', { phone_country_code: '57' }],
      ['phone_number', { phone_number: '300-777' }],
      ['phone_number', { phone_number: undefined }],
      ['outbound_id', { outbound_id: 'nope' }],
      ['outbound_id', { outbound_id: undefined }],
    ])('refuses a bad %s and sends nothing', async (field, change) => {
      const link = await accessLink({ message_channel: 'email', email: 'cy@example.test' });
      const web = api.withKey(link.body.api_key);
      const proc = await web.post('/v1/processes');
      const before = await stored();
      const res = await web.postJson(`/v1/processes/${proc.body.process_id}/send-link`, {
        message_channel: 'msgapp',
        lang: 'es',
        phone_country_code: '+57',
        phone_number: '3007778899',
        outbound_id: outboundId,
        ...change,
      });
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(await stored()).toEqual(before);
    });
  });

  describe('refusals of process-access-link (400, nothing stored)', () => {
    it.each([
      ['message_channel', { email: 'a@example.test' }],
      ['message_channel', { message_channel: 'fax', email: 'a@example.test' }],
      ['email', { message_channel: 'email' }],
      ['email', { message_channel: 'email', email: 'not-an-email' }],
      ['phone_number', { message_channel: 'sms' }],
      ['phone_number', { message_channel: 'sms', phone_number: '3001234567' }],
      ['phone_number', { message_channel: 'email', email: 'a@example.test', phone_number: '+57 300' }],
      ['phone_number', { message_channel: 'msgapp', outbound_id: `OTB${'a'.repeat(32)}` }],
      ['lang', { message_channel: 'email', email: 'a@example.test', lang: 'EN' }],
      ['lang', { message_channel: 'email', email: 'a@example.test', lang: 'fr' }],
      ['outbound_id', { message_channel: 'msgapp', phone_number: '+573001234567' }],
      ['outbound_id', { message_channel: 'msgapp', phone_number: '+573001234567', outbound_id: 'OTB1' }],
      ['outbound_id', { message_channel: 'email', email: 'a@example.test', outbound_id: `OTB${'a'.repeat(32)}` }],
      ['var', { message_channel: 'email', email: 'a@example.test', 'var.name': 'Ana' }],
      [
        'var.name',
        { message_channel: 'msgapp', phone_number: '+573001234567', outbound_id: outboundId, var: { name: 5 } },
      ],
      [
        'var.bad-name',
        { message_channel: 'msgapp', phone_number: '+573001234567', outbound_id: outboundId, 'var.bad-name': 'x' },
      ],
    ])('refuses a bad %s', async (field, body) => {
      const before = await stored();
      const res = await accessLink(body);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(await stored()).toEqual(before);
    });

    it('answers 404 for an unknown flow and 403 to a web key, storing nothing', async () => {
      const before = await stored();
      expect(
        (await accessLink({ message_channel: 'email', email: 'a@example.test' }, api, 'IDFnope')).body,
      ).toMatchObject({
        code: 404,
        error_code: 'flow_not_found',
      });
      const link = await accessLink({ message_channel: 'email', email: 'a@example.test' });
      const after = await stored();
      const res = await accessLink(
        { message_channel: 'email', email: 'a@example.test' },
        api.withKey(link.body.api_key),
      );
      expect(res.body).toMatchObject({ code: 403, error_code: 'key_type_not_allowed' });
      expect(await stored()).toEqual(after);
      expect(after.deliveries).toBe(before.deliveries + 1);
    });
  });
});
