import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

import { SandboxCatalog, sandboxCatalogs } from './sandbox-catalogs';
import { sandboxMedia } from './sandbox-media';
import { sandboxMessages } from './sandbox-messages';
import { sandboxTemplates } from './sandbox-templates';
import {
  ControlBody,
  GraphAnswer,
  GraphBody,
  graphError,
  SandboxMessagingOptions,
  SandboxSentMessage,
  SandboxWaba,
} from './sandbox-types';
import { sandboxWabas } from './sandbox-wabas';
import { sandboxWebhooks } from './sandbox-webhooks';

export type {
  SandboxMessagingOptions,
  SandboxSentMessage,
  SandboxTemplate,
  SandboxWaba,
  SendBody,
} from './sandbox-types';

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
 * One module a provider resource: sandbox-wabas.ts, sandbox-templates.ts, sandbox-messages.ts,
 * sandbox-media.ts, sandbox-webhooks.ts (signing, retries, status batches), sandbox-catalogs.ts.
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
export interface SandboxMessaging {
  url: string;
  graphUrl: string;
  accessToken: string;
  appSecret: string;
  setWebhookUrl(url: string): void;
  createWaba(): { waba_id: string; phone_numbers: SandboxWaba['phoneNumbers'] };
  messages(): SandboxSentMessage[];
  /** Catalogs published to the sandbox, with their connected WABAs and products. */
  catalogs(): SandboxCatalog[];
  /** Every webhook post and its outcome (status code or error). */
  webhooks(): { body: unknown; status: number | string; at: string }[];
  stop(): Promise<void>;
}

const GRAPH_VERSION = 'v21.0';

export async function startSandboxMessaging(options: SandboxMessagingOptions = {}): Promise<SandboxMessaging> {
  const accessToken = options.accessToken ?? `sandbox-token-${randomBytes(8).toString('hex')}`;
  const appSecret = options.appSecret ?? `sandbox-secret-${randomBytes(8).toString('hex')}`;
  let webhookUrl = options.webhookUrl;
  const latencyMs = options.latencyMs ?? 0;
  const timers = new Set<NodeJS.Timeout>();
  let seq = 0;
  let stopped = false;
  const nextId = () => `${Date.now()}${String(++seq).padStart(6, '0')}`;
  const later = (ms: number, fn: () => void) => {
    if (stopped) return;
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const webhooks = sandboxWebhooks({
    nextId,
    later,
    appSecret,
    attempts: options.webhookAttempts ?? 600,
    statusBatchMs: options.statusBatchMs ?? 50,
    url: () => webhookUrl,
    stopped: () => stopped,
  });
  const wabas = sandboxWabas({ nextId, initial: options.wabas ?? [] });
  const templates = sandboxTemplates({ nextId, later, reviewDelayMs: options.reviewDelayMs ?? 1_000, webhooks });
  const messages = sandboxMessages({
    nextId,
    later,
    statusDelayMs: options.statusDelayMs ?? 200,
    wabas,
    templates,
    webhooks,
  });
  const media = sandboxMedia({ nextId, wabas });
  const catalogs = sandboxCatalogs({ wabaExists: (id) => wabas.has(id), nextId });

  const graph = async (req: IncomingMessage, parts: string[], url: URL, raw: Buffer): Promise<GraphAnswer> => {
    if (req.headers.authorization !== `Bearer ${accessToken}`)
      return graphError(nextId, 401, 190, 'Invalid OAuth access token - Cannot parse access token');
    if (latencyMs) await new Promise((r) => setTimeout(r, latencyMs));
    const [node, edge] = parts;
    const method = String(req.method);
    const body = () => {
      try {
        return (raw.length ? JSON.parse(raw.toString('utf8')) : {}) as GraphBody;
      } catch {
        return undefined;
      }
    };
    const answer =
      catalogs.handle(method, parts, url, body() as Record<string, unknown> | undefined) ??
      wabas.handle(method, node, edge);
    if (answer) return answer;
    if (edge === 'message_templates') {
      if (!wabas.has(node)) return graphError(nextId, 400, 100, `Object with ID '${node}' does not exist`);
      const templateAnswer = templates.handle(method, node, url, body);
      if (templateAnswer) return templateAnswer;
    }
    if (edge === 'messages' && method === 'POST') {
      const b = body();
      if (!b) return graphError(nextId, 400, 100, 'Invalid JSON');
      return messages.send(node, b);
    }
    if (edge === 'media' && method === 'POST') return media.upload(node, req.headers['content-type']);
    return graphError(nextId, 400, 100, `Unsupported ${method} request on ${parts.join('/')}`);
  };

  /** The control API for tests (no auth). */
  const control = (req: IncomingMessage, action: string, url: URL, raw: Buffer): GraphAnswer => {
    let b: ControlBody = {};
    try {
      b = (raw.length ? JSON.parse(raw.toString('utf8')) : {}) as ControlBody;
    } catch {
      return { status: 400, body: { error: 'invalid JSON' } };
    }
    const route = `${req.method} ${action}`;
    if (route === 'POST wabas') return { status: 200, body: wabas.create() };
    if (route === 'POST config') {
      if (typeof b.webhook_url === 'string') webhookUrl = b.webhook_url;
      return { status: 200, body: { webhook_url: webhookUrl } };
    }
    if (route === 'GET messages') {
      const to = url.searchParams.get('to')?.replace(/\D/g, '');
      return { status: 200, body: { data: messages.list(to, url.searchParams.get('phone_number_id')) } };
    }
    if (route === 'GET templates') return { status: 200, body: { data: templates.list() } };
    if (route === 'GET webhooks') return { status: 200, body: { data: webhooks.log() } };
    if (route === 'GET catalogs') return { status: 200, body: { data: catalogs.list() } };
    if (route === 'POST reply') return messages.reply(b);
    if (route === 'POST quality') return templates.rate(b);
    return { status: 404, body: { error: `unknown sandbox control ${req.method} ${action}` } };
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://sandbox');
      const parts = url.pathname.split('/').filter(Boolean);
      if (parts[0] === '_sandbox') return json(res, control(req, parts[1] ?? '', url, raw));
      if (/^v\d+\.\d+$/.test(parts[0] ?? '')) parts.shift();
      if (parts[0] === 'health') return json(res, { status: 200, body: { status: 'ok', sandbox: true } });
      graph(req, parts, url, raw)
        .then((answer) => json(res, answer))
        .catch((err: Error) => json(res, { status: 500, body: { error: { message: err.message } } }));
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
    createWaba: wabas.create,
    messages: () => messages.list(),
    catalogs: () => catalogs.list(),
    webhooks: webhooks.log,
    stop: async () => {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function json(res: ServerResponse, answer: GraphAnswer) {
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
