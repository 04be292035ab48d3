import { createHmac } from 'node:crypto';

import { SandboxClock } from './sandbox-types';

export interface SandboxWebhookLogEntry {
  body: unknown;
  status: number | string;
  at: string;
}

/**
 * Webhooks of the sandbox provider: JSON signed with `X-Hub-Signature-256: sha256=<HMAC-SHA256(app
 * secret, raw body)>`, retried 1 s apart (up to `attempts`) until the receiver answers 2xx; the
 * statuses of one number within `statusBatchMs` share one webhook (at most 100 each), as Meta's do.
 */
export function sandboxWebhooks(
  deps: SandboxClock & {
    appSecret: string;
    attempts: number;
    statusBatchMs: number;
    url(): string | undefined;
    stopped(): boolean;
  },
) {
  const log: SandboxWebhookLogEntry[] = [];
  const statusBatches = new Map<string, { wabaId: string; metadata: object; statuses: object[] }>();

  /** Posts a signed webhook; retried until a 2xx (or the attempts run out). */
  const post = (wabaId: string, field: string, value: unknown, attempt = 1) => {
    if (deps.stopped()) return;
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: wabaId, changes: [{ value, field }] }],
    });
    const signature = `sha256=${createHmac('sha256', deps.appSecret).update(body).digest('hex')}`;
    const retry = (status: number | string) => {
      log.push({ body: JSON.parse(body) as unknown, status, at: new Date().toISOString() });
      if (attempt < deps.attempts) deps.later(1_000, () => post(wabaId, field, value, attempt + 1));
    };
    const url = deps.url();
    if (!url) return retry('no webhook url');
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      body,
    })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status >= 200 && res.status < 300)
          log.push({ body: JSON.parse(body) as unknown, status: res.status, at: new Date().toISOString() });
        else retry(res.status);
      })
      .catch((err: Error) => retry(err.message));
  };

  /** Statuses of a number are batched for statusBatchMs (at most 100 per webhook). */
  const queueStatus = (wabaId: string, metadata: { phone_number_id: string }, status: object) => {
    const key = metadata.phone_number_id;
    let batch = statusBatches.get(key);
    if (!batch) {
      const opened = { wabaId, metadata, statuses: [] as object[] };
      batch = opened;
      statusBatches.set(key, opened);
      deps.later(deps.statusBatchMs, () => {
        statusBatches.delete(key);
        for (let i = 0; i < opened.statuses.length; i += 100)
          post(wabaId, 'messages', {
            messaging_product: 'whatsapp',
            metadata,
            statuses: opened.statuses.slice(i, i + 100),
          });
      });
    }
    batch.statuses.push(status);
  };

  return { post, queueStatus, log: () => [...log] };
}

export type SandboxWebhooks = ReturnType<typeof sandboxWebhooks>;
