/** Options of the sandbox messaging provider (see sandbox-messaging.server.ts for its behaviour). */
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
  wabas?: SandboxWaba[];
}

export interface SandboxWaba {
  id: string;
  phoneNumbers: { id: string; display_phone_number: string }[];
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
export interface GraphBody extends SendBody {
  name?: unknown;
  language?: string;
  category?: string;
  components?: unknown;
}

/** A control API request body. */
export interface ControlBody {
  webhook_url?: unknown;
  phone_number_id?: string;
  from?: unknown;
  text?: unknown;
  name?: string;
  template_id?: unknown;
  template_name?: unknown;
  quality?: unknown;
}

/** An answer of the sandbox: HTTP status and JSON body. */
export interface GraphAnswer {
  status: number;
  body: unknown;
}

/** A Graph API error answer (`OAuthException` for 401, `GraphMethodException` otherwise). */
export const graphError = (nextId: () => string, status: number, code: number, message: string): GraphAnswer => ({
  status,
  body: {
    error: { message, type: status === 401 ? 'OAuthException' : 'GraphMethodException', code, fbtrace_id: nextId() },
  },
});

/** What the resource modules share: ids, timers that stop with the sandbox. */
export interface SandboxClock {
  nextId: () => string;
  /** Runs fn after ms unless the sandbox stopped meanwhile. */
  later: (ms: number, fn: () => void) => void;
}
