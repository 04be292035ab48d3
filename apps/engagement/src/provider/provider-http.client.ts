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

/** The call could not be made or answered (network error, timeout): the outcome is unknown. */
export class ProviderUnreachableError extends Error {}

/**
 * The one module through which the engagement service makes outbound HTTP calls (to the messaging
 * provider). Plain fetch with a timeout for now; it is the single place to swap for the
 * platform's outbound HTTP client (SSRF policy) when that lands.
 */
@Injectable()
export class ProviderHttpClient {
  constructor(private readonly config: EngagementConfig) {}

  async request(req: ProviderHttpRequest): Promise<ProviderHttpResponse> {
    const headers: Record<string, string> = { ...(req.headers ?? {}) };
    let body: string | FormData | undefined;
    if (req.form) body = req.form;
    else if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.json);
    }
    let res: Response;
    try {
      res = await fetch(req.url, {
        method: req.method,
        headers,
        body,
        signal: AbortSignal.timeout(this.config.ENGAGEMENT_PROVIDER_TIMEOUT_MS),
      });
    } catch (err) {
      throw new ProviderUnreachableError(`${req.method} ${new URL(req.url).pathname}: ${(err as Error).message}`);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      /* not JSON: kept as text */
    }
    return { status: res.status, body: parsed };
  }
}
