import { request } from 'node:http';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** One exchange an ApiClient made, as response observers see it (see ApiClient.observe). */
export interface RecordedExchange {
  baseUrl: string;
  method: string;
  /** The path without its query string. */
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

type Body = Record<string, string | number | boolean | (string | number)[] | undefined>;

/** A small HTTP client for tests: form-encoded bodies by default (the spec's default), JSON on request. */
export class ApiClient {
  private static readonly observers = new Set<(exchange: RecordedExchange) => void>();

  /** Calls `observer` with every response any ApiClient receives from now on; returns the unsubscribe function. */
  static observe(observer: (exchange: RecordedExchange) => void): () => void {
    ApiClient.observers.add(observer);
    return () => ApiClient.observers.delete(observer);
  }

  constructor(
    readonly baseUrl: string,
    readonly apiKey?: string,
  ) {}

  withKey(apiKey: string | undefined): ApiClient {
    return new ApiClient(this.baseUrl, apiKey);
  }

  get<T = any>(path: string, headers: Record<string, string> = {}) {
    return this.request<T>('GET', path, undefined, headers);
  }

  delete<T = any>(path: string, headers: Record<string, string> = {}) {
    return this.request<T>('DELETE', path, undefined, headers);
  }

  post<T = any>(path: string, body?: Body, headers: Record<string, string> = {}) {
    return this.request<T>('POST', path, body, headers);
  }

  put<T = any>(path: string, body?: Body, headers: Record<string, string> = {}) {
    return this.request<T>('PUT', path, body, headers);
  }

  postJson<T = any>(path: string, body: unknown, headers: Record<string, string> = {}) {
    return this.request<T>('POST', path, body, { 'content-type': 'application/json', ...headers });
  }

  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const h: Record<string, string> = { ...(this.apiKey ? { 'Service-API-Key': this.apiKey } : {}), ...headers };
    let payload: string | undefined;
    if (body !== undefined) {
      if (h['content-type']?.includes('json')) payload = JSON.stringify(body);
      else {
        h['content-type'] = 'application/x-www-form-urlencoded';
        const form = new URLSearchParams();
        for (const [k, v] of Object.entries(body as Body)) {
          if (v === undefined) continue;
          for (const item of Array.isArray(v) ? v : [v]) form.append(k, String(item));
        }
        payload = form.toString();
      }
    }
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    const exchange = {
      baseUrl: this.baseUrl,
      method,
      path: path.split('?')[0],
      status: res.status,
      contentType: res.headers.get('content-type'),
      body: parsed,
    };
    for (const observer of ApiClient.observers) observer(exchange);
    return { status: res.status, body: parsed, headers: res.headers };
  }
}

/**
 * A JSON PUT over a connection of its own (node:http, no keep-alive pool): fetch's pooled
 * connection was reset by the server under ~100 KB bodies (the identity page's photo uploads).
 */
export function putJsonUnpooled(url: string, apiKey: string, body: unknown): Promise<{ status: number; body: any }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'PUT',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'Service-API-Key': apiKey,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
