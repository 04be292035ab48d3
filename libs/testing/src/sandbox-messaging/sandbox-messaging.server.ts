import { createHmac, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

import { SandboxCatalog, sandboxCatalogs } from './sandbox-catalogs';

/**
 * SANDBOX messaging provider: a small HTTP server speaking the subset of the WhatsApp Business
 * Platform Cloud API (Meta Graph API) the engagement service uses, so the service's real adapter
 * runs against it. It is not WhatsApp: nothing leaves the machine.
 *
 * Graph subset (under any `/vNN.N` prefix, `Authorization: Bearer <access token>` required):
 *   GET  /{waba-id}/phone_numbers                 the WABA's numbers
 *   POST /{waba-id}/subscribed_apps               subscribe the app to the WABA's webhooks
 *   GET  /{waba-id}/message_templates[?name=]     templates
 *   POST /{waba-id}/message_templates             submit a template (status PENDING, reviewed later)
 *   DELETE /{waba-id}/message_templates?name=     delete a template
 *   POST /{phone-number-id}/messages              send a template or session (text) message
 *   POST /{phone-number-id}/media                 upload media (any body; answers an id)
 *   commerce catalogs (owned_product_catalogs, product_catalogs, items_batch): sandbox-catalogs.ts
 *
 * Behaviour (documented in docs/services/engagement.md):
 *   - Template review after `reviewDelayMs`: REJECTED (INVALID_FORMAT) when the body of a MARKETING or
 *     UTILITY template starts or ends with a variable; REJECTED (ABUSIVE_CONTENT) when the name or body contains "sandbox-reject";
 *     APPROVED otherwise. The result is posted as a `message_template_status_update` webhook.
 *   - Sends: recorded (read them at GET /_sandbox/messages). Template sends need an APPROVED
 *     template of the number's WABA (error 132001 otherwise). Statuses sent, delivered and read are
 *     posted `statusDelayMs` apart (the statuses of a number within `statusBatchMs` share one webhook);
 *     a recipient whose number ends in 9999 gets `failed` (131026). Every status of a message echoes
 *     the send's `biz_opaque_callback_data`, as the Cloud API does.
 *   - Webhooks are JSON with `X-Hub-Signature-256: sha256=<HMAC-SHA256(app secret, raw body)>`,
 *     retried (1 s apart, up to `webhookAttempts`, default 600: ten minutes) until the receiver
 *     answers 2xx, as Meta does (Meta keeps retrying, less often, for up to 7 days).
 *
 * Control API for tests (no auth): POST /_sandbox/wabas (a new WABA with one number),
 * POST /_sandbox/reply {phone_number_id, from, text} (a user writes), POST /_sandbox/quality
 * {template_name | template_id, quality GREEN|YELLOW|RED}, POST /_sandbox/config {webhook_url},
 * GET /_sandbox/messages[?to=&phone_number_id=], GET /_sandbox/templates, GET /_sandbox/webhooks,
 * GET /_sandbox/catalogs (catalogs published to the sandbox, with their products).
 */
export interface SandboxMessagingOptions {
  port?: number;
  host?: string;
  accessToken?: string;
  appSecret?: string;
  /** Where webhooks are posted (settable later through POST /_sandbox/config). */
  webhookUrl?: string;
  reviewDelayMs?: number;
  statusDelayMs?: number;
  /** Latency added to every Graph call. */
  latencyMs?: number;
  webhookAttempts?: number;
  /** Statuses of one number reported within this window go out in one webhook (as Meta batches them). */
  statusBatchMs?: number;
  /** Pre-created WABAs (the stack's demo WABA). */
  wabas?: { id: string; phoneNumbers: { id: string; display_phone_number: string }[] }[];
}

export interface SandboxTemplate {
  id: string;
  waba_id: string;
  name: string;
  language: string;
  category: string;
  components: { type?: string; text?: string }[];
  status: string;
  quality_score: string;
  rejected_reason?: string;
}

export interface SandboxSentMessage {
  id: string;
  phone_number_id: string;
  to: string;
  type: string;
  body: SendBody;
  at: string;
}

export interface SandboxMessaging {
  url: string;
  graphUrl: string;
  accessToken: string;
  appSecret: string;
  setWebhookUrl(url: string): void;
  createWaba(): { waba_id: string; phone_numbers: { id: string; display_phone_number: string }[] };
  messages(): SandboxSentMessage[];
  /** Catalogs published to the sandbox, with their connected WABAs and products. */
  catalogs(): SandboxCatalog[];
  /** Every webhook post and its outcome (status code or error). */
  webhooks(): { body: unknown; status: number | string; at: string }[];
  stop(): Promise<void>;
}

const GRAPH_VERSION = 'v21.0';

/** A send request (POST /{phone-number-id}/messages), as received (fields may be missing). */
export interface SendBody {
  messaging_product?: string;
  to?: string;
  type?: string;
  template?: { name?: string; language?: { code?: string }; components?: unknown[] };
  text?: { body?: unknown };
  biz_opaque_callback_data?: string;
}

/** Any Graph request body the sandbox reads. */
interface GraphBody extends SendBody {
  name?: unknown;
  language?: string;
  category?: string;
  components?: unknown;
}

/** A control API request body. */
interface ControlBody {
  webhook_url?: unknown;
  phone_number_id?: string;
  from?: unknown;
  text?: unknown;
  name?: string;
  template_id?: unknown;
  template_name?: unknown;
  quality?: unknown;
}

export async function startSandboxMessaging(options: SandboxMessagingOptions = {}): Promise<SandboxMessaging> {
  const accessToken = options.accessToken ?? `sandbox-token-${randomBytes(8).toString('hex')}`;
  const appSecret = options.appSecret ?? `sandbox-secret-${randomBytes(8).toString('hex')}`;
  let webhookUrl = options.webhookUrl;
  const reviewDelayMs = options.reviewDelayMs ?? 1_000;
  const statusDelayMs = options.statusDelayMs ?? 200;
  const latencyMs = options.latencyMs ?? 0;
  const webhookAttempts = options.webhookAttempts ?? 600;
  const statusBatchMs = options.statusBatchMs ?? 50;
  const statusBatches = new Map<string, { wabaId: string; metadata: object; statuses: object[] }>();
  const wabas = new Map<string, { id: string; phoneNumbers: { id: string; display_phone_number: string }[] }>();
  const templates = new Map<string, SandboxTemplate>();
  const sent: SandboxSentMessage[] = [];
  const webhookLog: { body: unknown; status: number | string; at: string }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let seq = 0;
  let stopped = false;
  const nextId = () => `${Date.now()}${String(++seq).padStart(6, '0')}`;
  for (const w of options.wabas ?? []) wabas.set(w.id, w);
  const catalogs = sandboxCatalogs({ wabaExists: (id) => wabas.has(id), nextId });

  const later = (ms: number, fn: () => void) => {
    if (stopped) return;
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const createWaba = () => {
    const n = nextId();
    const phone = `+5730${n.slice(-8)}`;
    const waba = { id: `waba${n}`, phoneNumbers: [{ id: `pn${n}`, display_phone_number: phone }] };
    wabas.set(waba.id, waba);
    return { waba_id: waba.id, phone_numbers: waba.phoneNumbers };
  };

  const wabaOfNumber = (phoneNumberId: string) =>
    [...wabas.values()].find((w) => w.phoneNumbers.some((p) => p.id === phoneNumberId));

  /** Posts a signed webhook; retried until a 2xx (or the attempts run out). */
  const postWebhook = (wabaId: string, field: string, value: unknown, attempt = 1) => {
    if (stopped) return;
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: wabaId, changes: [{ value, field }] }],
    });
    const signature = `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
    const retry = (status: number | string) => {
      webhookLog.push({ body: JSON.parse(body) as unknown, status, at: new Date().toISOString() });
      if (attempt < webhookAttempts) later(1_000, () => postWebhook(wabaId, field, value, attempt + 1));
    };
    if (!webhookUrl) return retry('no webhook url');
    fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      body,
    })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status >= 200 && res.status < 300)
          webhookLog.push({ body: JSON.parse(body) as unknown, status: res.status, at: new Date().toISOString() });
        else retry(res.status);
      })
      .catch((err: Error) => retry(err.message));
  };

  /** Statuses of a number are batched for statusBatchMs (at most 100 per webhook). */
  const queueStatus = (wabaId: string, metadata: { phone_number_id: string }, status: object) => {
    const key = metadata.phone_number_id;
    let batch = statusBatches.get(key);
    if (!batch) {
      batch = { wabaId, metadata, statuses: [] };
      statusBatches.set(key, batch);
      later(statusBatchMs, () => {
        statusBatches.delete(key);
        for (let i = 0; i < batch!.statuses.length; i += 100)
          postWebhook(wabaId, 'messages', {
            messaging_product: 'whatsapp',
            metadata,
            statuses: batch!.statuses.slice(i, i + 100),
          });
      });
    }
    batch.statuses.push(status);
  };

  const bodyText = (t: SandboxTemplate) => String(t.components.find((c) => c.type === 'BODY')?.text ?? '').trim();

  const review = (t: SandboxTemplate) => {
    const body = bodyText(t);
    if (/sandbox-reject/i.test(t.name) || /sandbox-reject/i.test(body)) {
      t.status = 'REJECTED';
      t.rejected_reason = 'ABUSIVE_CONTENT';
    } else if (t.category !== 'AUTHENTICATION' && (/^\{\{\d+\}\}/.test(body) || /\{\{\d+\}\}[.!?]?$/.test(body))) {
      t.status = 'REJECTED';
      t.rejected_reason = 'INVALID_FORMAT';
    } else t.status = 'APPROVED';
    if (t.status === 'APPROVED') t.quality_score = 'GREEN';
    postWebhook(t.waba_id, 'message_template_status_update', {
      event: t.status,
      message_template_id: Number(t.id),
      message_template_name: t.name,
      message_template_language: t.language,
      reason: t.rejected_reason ?? 'NONE',
    });
  };

  const graphError = (res: ServerResponse, status: number, code: number, message: string) =>
    json(res, status, {
      error: { message, type: status === 401 ? 'OAuthException' : 'GraphMethodException', code, fbtrace_id: nextId() },
    });

  const sendMessage = (phoneNumberId: string, body: SendBody, res: ServerResponse) => {
    const waba = wabaOfNumber(phoneNumberId);
    if (!waba)
      return graphError(res, 400, 100, `Unsupported post request. Object with ID '${phoneNumberId}' does not exist`);
    if (body?.messaging_product !== 'whatsapp') return graphError(res, 400, 100, 'messaging_product must be whatsapp');
    const to = String(body?.to ?? '').replace(/\D/g, '');
    if (!/^\d{8,15}$/.test(to)) return graphError(res, 400, 131009, 'Parameter value is not valid: to');
    if (body.type === 'template') {
      const t = [...templates.values()].find(
        (x) => x.waba_id === waba.id && x.name === body.template?.name && x.language === body.template?.language?.code,
      );
      if (!t || !['APPROVED', 'FLAGGED'].includes(t.status))
        return graphError(res, 404, 132001, 'Template name does not exist in the translation');
    } else if (body.type !== 'text' || typeof body.text?.body !== 'string')
      return graphError(res, 400, 100, 'Unsupported message type');
    const id = `wamid.${Buffer.from(`${phoneNumberId}:${nextId()}`).toString('base64url')}`;
    sent.push({ id, phone_number_id: phoneNumberId, to, type: String(body.type), body, at: new Date().toISOString() });
    const metadata = {
      display_phone_number: waba.phoneNumbers
        .find((p) => p.id === phoneNumberId)!
        .display_phone_number.replace(/\D/g, ''),
      phone_number_id: phoneNumberId,
    };
    const status = (s: string, extra: object = {}) =>
      queueStatus(waba.id, metadata, {
        id,
        status: s,
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: to,
        ...(body.biz_opaque_callback_data ? { biz_opaque_callback_data: body.biz_opaque_callback_data } : {}),
        ...extra,
      });
    if (to.endsWith('9999'))
      later(statusDelayMs, () => status('failed', { errors: [{ code: 131026, title: 'Message undeliverable' }] }));
    else {
      later(statusDelayMs, () => status('sent'));
      later(2 * statusDelayMs, () => status('delivered'));
      later(3 * statusDelayMs, () => status('read'));
    }
    json(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: String(body.to), wa_id: to }],
      messages: [{ id }],
    });
  };

  const graph = async (req: IncomingMessage, res: ServerResponse, parts: string[], url: URL, raw: Buffer) => {
    if (req.headers.authorization !== `Bearer ${accessToken}`)
      return graphError(res, 401, 190, 'Invalid OAuth access token - Cannot parse access token');
    if (latencyMs) await new Promise((r) => setTimeout(r, latencyMs));
    const [node, edge] = parts;
    const body = () => {
      try {
        return (raw.length ? JSON.parse(raw.toString('utf8')) : {}) as GraphBody;
      } catch {
        return undefined;
      }
    };
    const catalogAnswer = catalogs.handle(
      String(req.method),
      parts,
      url,
      body() as Record<string, unknown> | undefined,
    );
    if (catalogAnswer) return json(res, catalogAnswer.status, catalogAnswer.body);
    const waba = wabas.get(node);
    if (edge === 'phone_numbers' && req.method === 'GET') {
      if (!waba) return graphError(res, 400, 100, `Object with ID '${node}' does not exist`);
      return json(res, 200, {
        data: waba.phoneNumbers.map((p) => ({
          ...p,
          verified_name: 'Sandbox line',
          quality_rating: 'GREEN',
          code_verification_status: 'VERIFIED',
        })),
      });
    }
    if (edge === 'subscribed_apps' && req.method === 'POST') {
      if (!waba) return graphError(res, 400, 100, `Object with ID '${node}' does not exist`);
      return json(res, 200, { success: true });
    }
    if (edge === 'message_templates') {
      if (!waba) return graphError(res, 400, 100, `Object with ID '${node}' does not exist`);
      const name = url.searchParams.get('name');
      if (req.method === 'GET')
        return json(res, 200, {
          data: [...templates.values()].filter((t) => t.waba_id === node && (!name || t.name === name)),
        });
      if (req.method === 'DELETE') {
        if (!name) return graphError(res, 400, 100, 'name is required');
        const matching = [...templates.values()].filter((t) => t.waba_id === node && t.name === name);
        if (!matching.length) return graphError(res, 404, 100, `Template ${name} not found`);
        for (const t of matching) templates.delete(t.id);
        return json(res, 200, { success: true });
      }
      if (req.method === 'POST') {
        const b = body();
        if (!b || typeof b.name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(b.name))
          return graphError(res, 400, 100, 'Invalid parameter: name');
        if (!['MARKETING', 'UTILITY', 'AUTHENTICATION'].includes(String(b.category)))
          return graphError(res, 400, 100, 'Invalid parameter: category');
        if (!Array.isArray(b.components)) return graphError(res, 400, 100, 'Invalid parameter: components');
        if ([...templates.values()].some((t) => t.waba_id === node && t.name === b.name && t.language === b.language))
          return graphError(res, 400, 2388024, 'Content in this language already exists');
        const t: SandboxTemplate = {
          id: nextId(),
          waba_id: node,
          name: b.name,
          language: String(b.language),
          category: String(b.category),
          components: b.components as SandboxTemplate['components'],
          status: 'PENDING',
          quality_score: 'UNKNOWN',
        };
        templates.set(t.id, t);
        later(reviewDelayMs, () => review(t));
        return json(res, 200, { id: t.id, status: 'PENDING', category: t.category });
      }
    }
    if (edge === 'messages' && req.method === 'POST') {
      const b = body();
      if (!b) return graphError(res, 400, 100, 'Invalid JSON');
      return sendMessage(node, b, res);
    }
    if (edge === 'media' && req.method === 'POST') {
      if (!wabaOfNumber(node)) return graphError(res, 400, 100, `Object with ID '${node}' does not exist`);
      if (!String(req.headers['content-type'] ?? '').startsWith('multipart/form-data'))
        return graphError(res, 400, 100, 'media must be multipart/form-data');
      return json(res, 200, { id: `media${nextId()}` });
    }
    return graphError(res, 400, 100, `Unsupported ${req.method} request on ${parts.join('/')}`);
  };

  const control = (req: IncomingMessage, res: ServerResponse, action: string, url: URL, raw: Buffer) => {
    let b: ControlBody = {};
    try {
      b = (raw.length ? JSON.parse(raw.toString('utf8')) : {}) as ControlBody;
    } catch {
      return json(res, 400, { error: 'invalid JSON' });
    }
    if (action === 'wabas' && req.method === 'POST') return json(res, 200, createWaba());
    if (action === 'config' && req.method === 'POST') {
      if (typeof b.webhook_url === 'string') webhookUrl = b.webhook_url;
      return json(res, 200, { webhook_url: webhookUrl });
    }
    if (action === 'messages' && req.method === 'GET') {
      const to = url.searchParams.get('to')?.replace(/\D/g, '');
      const pn = url.searchParams.get('phone_number_id');
      return json(res, 200, { data: sent.filter((m) => (!to || m.to === to) && (!pn || m.phone_number_id === pn)) });
    }
    if (action === 'templates' && req.method === 'GET') return json(res, 200, { data: [...templates.values()] });
    if (action === 'webhooks' && req.method === 'GET') return json(res, 200, { data: webhookLog });
    if (action === 'catalogs' && req.method === 'GET') return json(res, 200, { data: catalogs.list() });
    if (action === 'reply' && req.method === 'POST') {
      const waba = wabaOfNumber(String(b.phone_number_id));
      if (!waba || typeof b.from !== 'string' || typeof b.text !== 'string')
        return json(res, 400, { error: 'phone_number_id (a sandbox number), from and text are required' });
      const from = b.from.replace(/\D/g, '');
      const id = `wamid.${Buffer.from(`in:${nextId()}`).toString('base64url')}`;
      postWebhook(waba.id, 'messages', {
        messaging_product: 'whatsapp',
        metadata: {
          display_phone_number: waba.phoneNumbers
            .find((p) => p.id === b.phone_number_id)!
            .display_phone_number.replace(/\D/g, ''),
          phone_number_id: b.phone_number_id,
        },
        contacts: [{ profile: { name: b.name ?? 'Sandbox user' }, wa_id: from }],
        messages: [
          { from, id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: b.text } },
        ],
      });
      return json(res, 200, { id });
    }
    if (action === 'quality' && req.method === 'POST') {
      const t = [...templates.values()].find((x) => x.id === String(b.template_id) || x.name === b.template_name);
      if (!t || typeof b.quality !== 'string' || !['GREEN', 'YELLOW', 'RED'].includes(b.quality))
        return json(res, 400, { error: 'template_name or template_id of a template, and quality GREEN|YELLOW|RED' });
      const previous = t.quality_score;
      t.quality_score = b.quality;
      postWebhook(t.waba_id, 'message_template_quality_update', {
        previous_quality_score: previous,
        new_quality_score: b.quality,
        message_template_id: Number(t.id),
        message_template_name: t.name,
        message_template_language: t.language,
      });
      return json(res, 200, { template_id: t.id, quality: b.quality });
    }
    return json(res, 404, { error: `unknown sandbox control ${req.method} ${action}` });
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://sandbox');
      const parts = url.pathname.split('/').filter(Boolean);
      if (parts[0] === '_sandbox') return control(req, res, parts[1] ?? '', url, raw);
      if (/^v\d+\.\d+$/.test(parts[0] ?? '')) parts.shift();
      if (parts[0] === 'health') return json(res, 200, { status: 'ok', sandbox: true });
      graph(req, res, parts, url, raw).catch((err: Error) => json(res, 500, { error: { message: err.message } }));
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    graphUrl: `${url}/${GRAPH_VERSION}`,
    accessToken,
    appSecret,
    setWebhookUrl: (u) => (webhookUrl = u),
    createWaba,
    messages: () => [...sent],
    catalogs: () => catalogs.list(),
    webhooks: () => [...webhookLog],
    stop: async () => {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
