import { OutboundHttpClient, OutboundHttpError } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { EngagementConfig } from '../config/engagement.config';

export interface ProviderHttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  /** A JSON body (serialized here) or a FormData (multipart). */
  json?: unknown;
  form?: FormData;
}

export interface ProviderHttpResponse {
  status: number;
  /** Parsed JSON (the text when it is not JSON). */
  body: unknown;
}

/** The call could not be made or answered (blocked address, network error, timeout): the outcome is unknown. */
export class ProviderUnreachableError extends Error {}

/** Graph answers larger than this are refused (template lists are paged by the provider well below it). */
const MAX_PROVIDER_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * The one module through which the engagement service makes outbound HTTP calls (to the messaging
 * provider): the platform's OutboundHttpClient, so the SSRF policy applies to the Graph base URL a
 * deployment configures (the stack allows loopback, where the sandbox provider listens, through
 * OUTBOUND_HTTP_ALLOW). Multipart bodies are encoded here (the client sends bytes).
 */
@Injectable()
export class ProviderHttpClient {
  constructor(
    private readonly outbound: OutboundHttpClient,
    private readonly config: EngagementConfig,
  ) {}

  async request(req: ProviderHttpRequest): Promise<ProviderHttpResponse> {
    const headers: Record<string, string> = { ...(req.headers ?? {}) };
    let body: Buffer | undefined;
    if (req.form) {
      const encoded = new Response(req.form);
      headers['content-type'] = encoded.headers.get('content-type') ?? 'multipart/form-data';
      body = Buffer.from(await encoded.arrayBuffer());
    } else if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = Buffer.from(JSON.stringify(req.json), 'utf8');
    }
    if (body) headers['content-length'] = String(body.length);
    let res;
    try {
      res = await this.outbound.request({
        url: req.url,
        method: req.method,
        headers,
        body,
        timeoutMs: this.config.ENGAGEMENT_PROVIDER_TIMEOUT_MS,
        maxResponseBytes: MAX_PROVIDER_RESPONSE_BYTES,
      });
    } catch (err) {
      const reason = err instanceof OutboundHttpError ? err.reason : (err as Error).message;
      throw new ProviderUnreachableError(`${req.method} ${safePath(req.url)}: ${reason}`);
    }
    const text = res.body.toString('utf8');
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      /* not JSON: kept as text */
    }
    return { status: res.status, body: parsed };
  }
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(invalid URL)';
  }
}
