import { SandboxTemplates } from './sandbox-templates';
import { ControlBody, GraphAnswer, graphError, SandboxClock, SandboxSentMessage, SendBody } from './sandbox-types';
import { SandboxWabas } from './sandbox-wabas';
import { SandboxWebhooks } from './sandbox-webhooks';

/**
 * Messages of the sandbox provider: `POST /{phone-number-id}/messages` (recorded; statuses sent,
 * delivered and read `statusDelayMs` apart, `failed` 131026 for a number ending in 9999, each echoing
 * `biz_opaque_callback_data`) and what a user writes (`POST /_sandbox/reply`, an inbound webhook).
 */
export function sandboxMessages(
  deps: SandboxClock & {
    statusDelayMs: number;
    wabas: SandboxWabas;
    templates: SandboxTemplates;
    webhooks: SandboxWebhooks;
  },
) {
  const sent: SandboxSentMessage[] = [];
  const error = (status: number, code: number, message: string) => graphError(deps.nextId, status, code, message);

  const send = (phoneNumberId: string, body: SendBody): GraphAnswer => {
    const waba = deps.wabas.ofNumber(phoneNumberId);
    if (!waba) return error(400, 100, `Unsupported post request. Object with ID '${phoneNumberId}' does not exist`);
    if (body?.messaging_product !== 'whatsapp') return error(400, 100, 'messaging_product must be whatsapp');
    const to = String(body?.to ?? '').replace(/\D/g, '');
    if (!/^\d{8,15}$/.test(to)) return error(400, 131009, 'Parameter value is not valid: to');
    if (body.type === 'template') {
      const t = deps.templates.find(waba.id, body.template?.name, body.template?.language?.code);
      if (!t || !['APPROVED', 'FLAGGED'].includes(t.status))
        return error(404, 132001, 'Template name does not exist in the translation');
    } else if (body.type !== 'text' || typeof body.text?.body !== 'string')
      return error(400, 100, 'Unsupported message type');
    const id = `wamid.${Buffer.from(`${phoneNumberId}:${deps.nextId()}`).toString('base64url')}`;
    sent.push({ id, phone_number_id: phoneNumberId, to, type: String(body.type), body, at: new Date().toISOString() });
    const metadata = deps.wabas.metadata(waba, phoneNumberId);
    const status = (s: string, extra: object = {}) =>
      deps.webhooks.queueStatus(waba.id, metadata, {
        id,
        status: s,
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: to,
        ...(body.biz_opaque_callback_data ? { biz_opaque_callback_data: body.biz_opaque_callback_data } : {}),
        ...extra,
      });
    if (to.endsWith('9999'))
      deps.later(deps.statusDelayMs, () =>
        status('failed', { errors: [{ code: 131026, title: 'Message undeliverable' }] }),
      );
    else {
      deps.later(deps.statusDelayMs, () => status('sent'));
      deps.later(2 * deps.statusDelayMs, () => status('delivered'));
      deps.later(3 * deps.statusDelayMs, () => status('read'));
    }
    return {
      status: 200,
      body: { messaging_product: 'whatsapp', contacts: [{ input: String(body.to), wa_id: to }], messages: [{ id }] },
    };
  };

  /** POST /_sandbox/reply: a user writes to a sandbox number (posted as an inbound messages webhook). */
  const reply = (b: ControlBody): GraphAnswer => {
    const waba = deps.wabas.ofNumber(String(b.phone_number_id));
    if (!waba || typeof b.from !== 'string' || typeof b.text !== 'string')
      return { status: 400, body: { error: 'phone_number_id (a sandbox number), from and text are required' } };
    const from = b.from.replace(/\D/g, '');
    const id = `wamid.${Buffer.from(`in:${deps.nextId()}`).toString('base64url')}`;
    deps.webhooks.post(waba.id, 'messages', {
      messaging_product: 'whatsapp',
      metadata: deps.wabas.metadata(waba, String(b.phone_number_id)),
      contacts: [{ profile: { name: b.name ?? 'Sandbox user' }, wa_id: from }],
      messages: [{ from, id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: b.text } }],
    });
    return { status: 200, body: { id } };
  };

  /** The recorded sends, optionally of one recipient (digits) or one sending number. */
  const list = (to?: string, phoneNumberId?: string | null) =>
    sent.filter((m) => (!to || m.to === to) && (!phoneNumberId || m.phone_number_id === phoneNumberId));

  return { send, reply, list };
}
