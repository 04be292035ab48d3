export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

type Body = Record<string, string | number | boolean | (string | number)[] | undefined>;

/** A small HTTP client for tests: form-encoded bodies by default (the spec's default), JSON on request. */
export class ApiClient {
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
    return { status: res.status, body: parsed, headers: res.headers };
  }
}
