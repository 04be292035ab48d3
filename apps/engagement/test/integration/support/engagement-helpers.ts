import { createHmac, randomBytes } from 'node:crypto';

import { ApiClient, db, eventually, SandboxMessaging } from '@kyc/testing';

export interface ConnectedTenant {
  api: ApiClient;
  wabaId: string;
  /** The line's phone with country code (E.164). */
  line: string;
  phoneNumberId: string;
  verifyToken: string;
}

/** Gives a tenant its own WABA in the sandbox provider: credentials, subscription, lines synced. */
export async function connectTenant(api: ApiClient, sandbox: SandboxMessaging): Promise<ConnectedTenant> {
  const waba = sandbox.createWaba();
  const verifyToken = `vt-${randomBytes(6).toString('hex')}`;
  const saved = await api.put('/v1/msg/provider-credentials', {
    access_token: sandbox.accessToken,
    waba_id: waba.waba_id,
    app_secret: sandbox.appSecret,
    verify_token: verifyToken,
  });
  if (saved.status !== 200) throw new Error(`credentials: ${saved.status} ${JSON.stringify(saved.body)}`);
  const sub = await api.post('/v1/msg/waba-subscription');
  if (sub.status !== 200) throw new Error(`subscription: ${sub.status} ${JSON.stringify(sub.body)}`);
  return {
    api,
    wabaId: waba.waba_id,
    line: sub.body.lines[0].waba_line,
    phoneNumberId: waba.phone_numbers[0].id,
    verifyToken,
  };
}

/** The raw body of a provider webhook with one `messages` change of the tenant's line (`value` adds messages or statuses). */
export const messagesWebhook = (t: ConnectedTenant, value: Record<string, unknown>): string =>
  JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: t.wabaId,
        changes: [
          {
            field: 'messages',
            value: { messaging_product: 'whatsapp', metadata: { phone_number_id: t.phoneNumberId }, ...value },
          },
        ],
      },
    ],
  });

/** The X-Hub-Signature-256 header value of a raw webhook body under an app secret. */
export const webhookSignature = (raw: string, secret: string): string =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

/** A valid MARKETING TEXT outbound on the line (override any field). */
export const marketing = (line: string, overrides: Record<string, unknown> = {}) => ({
  outbound_name: `promo ${randomBytes(3).toString('hex')}`,
  waba_phone_number: line,
  category: 'MARKETING',
  language_code: 'es',
  template_type: 'TEXT',
  is_notification: true,
  content: 'Hola {{.name}}, tu pedido llega hoy.',
  var: { name: { value: 'Ana' } },
  ...overrides,
});

/** Creates an outbound and waits until the sandbox provider's review webhook approved it. */
export async function approvedOutbound(t: ConnectedTenant, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await t.api.postJson('/v1/msg/outbounds', marketing(t.line, overrides));
  if (res.status !== 201) throw new Error(`outbound: ${res.status} ${JSON.stringify(res.body)}`);
  return eventually(
    async () => {
      const got = await t.api.get(`/v1/msg/outbounds/${res.body.outbound_id}`);
      if (got.body.status !== 'APPROVED') throw new Error(`outbound is ${got.body.status}`);
      return got.body;
    },
    { timeoutMs: 45_000, intervalMs: 100 },
  );
}

/** The engagement outbox events of a tenant, of one type (`schema`: a suite's own engagement schema). */
export async function events(tenantId: string, type: string, schema = 'engagement'): Promise<any[]> {
  const { rows } = await db().query(
    `SELECT envelope FROM "${schema}".outbox WHERE tenant_id = $1 AND type = $2 ORDER BY seq`,
    [tenantId, type],
  );
  return rows.map((r) => r.envelope.payload);
}
