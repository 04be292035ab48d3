import { Readable } from 'node:stream';

import { Injectable } from '@nestjs/common';

import { EngagementConfig } from '../config/engagement.config';
import { MultipartBody, ProviderHttpClient, ProviderHttpResponse } from './provider-http.client';
import { TemplateDefinition, toGraphSend, toGraphTemplate } from './template-components';

/** A tenant's credentials for the WhatsApp Business Platform (opened from their sealed form). */
export interface ProviderCredentials {
  accessToken: string;
  wabaId: string;
  appSecret: string;
  verifyToken: string;
}

export interface ProviderPhoneNumber {
  id: string;
  displayPhoneNumber: string;
  verifiedName?: string;
  qualityRating?: string;
}

/** The Graph API answers this provider reads (fields may be missing). */
export interface GraphBody {
  id?: string | number;
  status?: string;
  data?: Record<string, unknown>[];
  messages?: { id?: string }[];
  error?: { message?: string; code?: number };
}

/** The provider refused a call (4xx/5xx with a Graph error). `permanent`: retrying cannot help. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly providerCode?: number,
  ) {
    super(message);
  }

  get permanent(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 429;
  }
}

/**
 * The messaging-provider adapter: the WhatsApp Business Platform Cloud API (Meta Graph API) at
 * ENGAGEMENT_GRAPH_BASE_URL. The stack points that URL at the sandbox provider, which speaks the same
 * subset; a tenant's own credentials against graph.facebook.com send real messages.
 */
@Injectable()
export class MessagingProvider {
  constructor(
    private readonly http: ProviderHttpClient,
    private readonly config: EngagementConfig,
  ) {}

  async phoneNumbers(c: ProviderCredentials): Promise<ProviderPhoneNumber[]> {
    const body = await this.call(c, 'GET', `${c.wabaId}/phone_numbers`);
    return (body.data ?? []).map((p) => ({
      id: String(p.id),
      displayPhoneNumber: String(p.display_phone_number),
      verifiedName: typeof p.verified_name === 'string' ? p.verified_name : undefined,
      qualityRating: typeof p.quality_rating === 'string' ? p.quality_rating : undefined,
    }));
  }

  async subscribeApp(c: ProviderCredentials): Promise<void> {
    await this.call(c, 'POST', `${c.wabaId}/subscribed_apps`);
  }

  /** Submits a template for review; answers the provider's template id. */
  async submitTemplate(c: ProviderCredentials, def: TemplateDefinition): Promise<{ id: string; status: string }> {
    const body = await this.call(c, 'POST', `${c.wabaId}/message_templates`, toGraphTemplate(def));
    return { id: String(body.id), status: String(body.status ?? 'PENDING') };
  }

  async listTemplates(c: ProviderCredentials, name?: string): Promise<Record<string, unknown>[]> {
    const q = name ? `?name=${encodeURIComponent(name)}` : '';
    return (await this.call(c, 'GET', `${c.wabaId}/message_templates${q}`)).data ?? [];
  }

  async deleteTemplate(c: ProviderCredentials, name: string): Promise<void> {
    try {
      await this.call(c, 'DELETE', `${c.wabaId}/message_templates?name=${encodeURIComponent(name)}`);
    } catch (err) {
      // Already gone at the provider: the deletion holds.
      if (!(err instanceof ProviderError && err.status === 404)) throw err;
    }
  }

  /** Uploads a header file, streamed from its source (a spooled upload is never held whole). */
  async uploadMedia(
    c: ProviderCredentials,
    phoneNumberId: string,
    file: { size: number; open(): Readable },
    mimeType: string,
  ): Promise<string> {
    const multipart: MultipartBody = {
      fields: { messaging_product: 'whatsapp', type: mimeType },
      file: { name: 'file', filename: 'upload', contentType: mimeType, size: file.size, open: () => file.open() },
    };
    return String((await this.call(c, 'POST', `${phoneNumberId}/media`, undefined, multipart)).id);
  }

  /** Sends a template message; `reference` comes back in every status webhook of the message. */
  async sendTemplate(
    c: ProviderCredentials,
    phoneNumberId: string,
    to: string,
    def: Parameters<typeof toGraphSend>[0],
    values: Record<string, string>,
    reference: string,
  ): Promise<string> {
    const body = await this.call(c, 'POST', `${phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      type: 'template',
      template: toGraphSend(def, values),
      biz_opaque_callback_data: reference,
    });
    return String(body.messages?.[0]?.id);
  }

  /** A session (free text) message, inside the customer-service window opened by the user. */
  async sendText(c: ProviderCredentials, phoneNumberId: string, to: string, text: string, reference: string) {
    const body = await this.call(c, 'POST', `${phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      type: 'text',
      text: { body: text },
      biz_opaque_callback_data: reference,
    });
    return String(body.messages?.[0]?.id);
  }

  /** One Graph API call with the tenant's token; a non-2xx answer throws ProviderError. */
  async call(
    c: ProviderCredentials,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    json?: unknown,
    multipart?: MultipartBody,
  ): Promise<GraphBody> {
    const res: ProviderHttpResponse = await this.http.request({
      method,
      url: `${this.config.ENGAGEMENT_GRAPH_BASE_URL.replace(/\/$/, '')}/${path}`,
      headers: { authorization: `Bearer ${c.accessToken}` },
      json,
      multipart,
    });
    const body = (res.body && typeof res.body === 'object' ? res.body : {}) as GraphBody;
    if (res.status >= 200 && res.status < 300) return body;
    const error = body.error;
    throw new ProviderError(
      `provider answered ${res.status}: ${error?.message ?? JSON.stringify(res.body).slice(0, 200)}`,
      res.status,
      error?.code,
    );
  }
}
