import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The WhatsApp Cloud API's webhooks, as the provider sends them: their signature, their body and
 * what it reports (delivery statuses, users' messages, template reviews and quality). The webhook
 * service (webhooks/) verifies and dispatches them; nothing outside provider/ reads the wire format.
 */

export const SIGNATURE_HEADER = 'x-hub-signature-256';

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>`, compared in constant time. */
export function validSignature(raw: Buffer, header: string | undefined, appSecret: string): boolean {
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!m) return false;
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return timingSafeEqual(Buffer.from(m[1], 'hex'), expected);
}

export const sign = (raw: Buffer | string, appSecret: string) =>
  `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;

/** The parts of a WhatsApp Cloud API webhook the service reads (anything may be missing). */
interface WaStatus {
  id?: string;
  status?: string;
  biz_opaque_callback_data?: string;
  errors?: { code?: number; title?: string }[];
}
interface WaMessage {
  from?: string;
  id?: string;
  text?: { body?: string };
  button?: { text?: string };
  interactive?: { button_reply?: { title?: string } };
  context?: { id?: string };
}
interface WaChangeValue {
  metadata?: { phone_number_id?: string };
  statuses?: WaStatus[];
  messages?: WaMessage[];
  contacts?: { wa_id?: string; profile?: { name?: string } }[];
  event?: string;
  reason?: string;
  message_template_name?: string;
  new_quality_score?: string;
}
export interface WhatsAppWebhook {
  object?: string;
  entry?: { id?: string; changes?: { field?: string; value?: WaChangeValue }[] }[];
}

/** A webhook body read: the body, or why it is refused. */
export type ParsedWebhook =
  { ok: true; body: WhatsAppWebhook; wabaIds: string[] } | { ok: false; reason: 'not_json' | 'no_business_account' };

/** Reads a webhook's raw body: JSON, and every entry naming its business account (WABA id). */
export function parseWebhook(raw: Buffer | undefined): ParsedWebhook {
  let body: WhatsAppWebhook;
  try {
    body = JSON.parse((raw ?? Buffer.alloc(0)).toString('utf8')) as WhatsAppWebhook;
  } catch {
    return { ok: false, reason: 'not_json' };
  }
  const wabaIds = [...new Set((Array.isArray(body?.entry) ? body.entry : []).map((e) => String(e?.id ?? '')))];
  if (!wabaIds.length || wabaIds.includes('')) return { ok: false, reason: 'no_business_account' };
  return { ok: true, body, wabaIds };
}

/** A delivery status the provider reported for a message. */
export interface ProviderStatus {
  providerMessageId: string;
  /** Our message id, echoed by the provider (biz_opaque_callback_data). */
  reference?: string;
  status: string;
  error?: string;
}

/** A user's message to a line. */
export interface UserMessage {
  from: string;
  text: string;
  providerMessageId: string;
  /** The provider id of the message the user answered (a reply or a button). */
  contextProviderId?: string;
  /** The user's profile name, when the provider gave it. */
  contactName?: string;
}

/** One change a webhook entry reports. */
export type WebhookChange =
  | {
      kind: 'messages';
      /** The line (the provider's phone number id) the messages were sent to. */
      phoneNumberId: string;
      /** Delivery statuses, in reference order (see statusesOf). */
      statuses: ProviderStatus[];
      messages: UserMessage[];
    }
  | { kind: 'template_status'; template: string; event: string; reason?: string }
  | { kind: 'template_quality'; template: string; quality: string }
  | { kind: 'ignored'; field?: string };

/** A webhook's entries: per business account (WABA id), the changes it reports, in order. */
export function webhookEntries(body: WhatsAppWebhook): { wabaId: string; changes: WebhookChange[] }[] {
  return (body.entry ?? []).map((entry) => ({
    wabaId: String(entry.id),
    changes: (entry.changes ?? []).map((change): WebhookChange => {
      const value: WaChangeValue = change.value ?? {};
      switch (change.field) {
        case 'messages':
          return {
            kind: 'messages',
            phoneNumberId: String(value.metadata?.phone_number_id),
            statuses: statusesOf(value.statuses ?? []),
            messages: (value.messages ?? []).map((msg) => ({
              from: String(msg.from),
              text: String(msg.text?.body ?? msg.button?.text ?? msg.interactive?.button_reply?.title ?? ''),
              providerMessageId: String(msg.id),
              contextProviderId: msg.context?.id,
              contactName: value.contacts?.find((c) => c.wa_id === msg.from)?.profile?.name,
            })),
          };
        case 'message_template_status_update':
          return {
            kind: 'template_status',
            template: String(value.message_template_name),
            event: String(value.event),
            reason: value.reason,
          };
        case 'message_template_quality_update':
          return {
            kind: 'template_quality',
            template: String(value.message_template_name),
            quality: String(value.new_quality_score),
          };
        default:
          return { kind: 'ignored', field: change.field };
      }
    }),
  }));
}

/**
 * A webhook's statuses in reference order (our reference, else the provider's id): whoever applies
 * them reads and locks their rows in that order, so concurrent webhooks never deadlock.
 */
function statusesOf(statuses: WaStatus[]): ProviderStatus[] {
  const key = (s: WaStatus) => String(s.biz_opaque_callback_data ?? s.id);
  return [...statuses]
    .sort((a, b) => key(a).localeCompare(key(b)))
    .map((s) => {
      const error = s.errors?.[0];
      return {
        providerMessageId: String(s.id),
        reference: typeof s.biz_opaque_callback_data === 'string' ? s.biz_opaque_callback_data : undefined,
        status: String(s.status),
        error: error ? `${error.code} ${error.title}` : undefined,
      };
    });
}
