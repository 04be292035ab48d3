import { createKycClient, ServicePaths } from '@kyc/client';
import { DependencyList, useCallback, useEffect, useState } from 'react';

/** One field's error as the API's envelope gives it. */
export interface FieldError {
  field: string;
  message: string;
}

/** An error answer of a service (its envelope), or a call that got no answer (`unreachable`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorCode?: string,
    readonly fields: FieldError[] = [],
  ) {
    super(message);
  }

  /** No answer, or a 5xx: worth a retry. */
  get retryable(): boolean {
    return this.status === 0 || this.status >= 500;
  }

  /** The message of one field (a form shows it under that field). */
  field(name: string): string | undefined {
    return this.fields.find((f) => f.field === name || f.field.endsWith(`.${name}`))?.message;
  }
}

let csrfToken = '';
/** The session's CSRF token, sent in X-CSRF-Token on every state-changing call. */
export const setCsrfToken = (token: string) => (csrfToken = token);

/** Called when a call answers 401 signed_out: the session ended (timeout, sign-out elsewhere, user disabled). */
let onSignedOut: () => void = () => undefined;
export const whenSignedOut = (fn: () => void) => (onSignedOut = fn);

function toApiError(response: Response, body: unknown): ApiError {
  const envelope = (body ?? {}) as { message?: string; error_code?: string; fields?: FieldError[] };
  if (response.status === 401 && envelope.error_code === 'signed_out') onSignedOut();
  return new ApiError(
    response.status,
    envelope.message ?? `${response.status} ${response.statusText}`,
    envelope.error_code,
    envelope.fields ?? [],
  );
}

function serviceClient<S extends keyof ServicePaths>(service: S) {
  const client = createKycClient(service, { baseUrl: `${location.origin}/api/services/${service}` });
  client.use({
    onRequest({ request }) {
      if (request.method !== 'GET') request.headers.set('x-csrf-token', csrfToken);
      return request;
    },
  });
  return client;
}

/** Typed clients of the services' public APIs (libs/client), through the console's backend with the session. */
export const api = {
  checks: serviceClient('checks'),
  account: serviceClient('account'),
  identity: serviceClient('identity'),
  customers: serviceClient('customers'),
  validations: serviceClient('validations'),
};

/** The data of a typed call, or throws its ApiError (status 0 when nothing answered). */
export async function call<T>(
  request: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<NonNullable<T>> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await request;
  } catch {
    throw new ApiError(0, 'unreachable', 'unreachable');
  }
  if (!result.response.ok) throw toApiError(result.response, result.error);
  return result.data as NonNullable<T>;
}

/** A call to the console's own routes (/api/session…). */
export async function bff<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(method !== 'GET' ? { 'x-csrf-token': csrfToken } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'unreachable', 'unreachable');
  }
  const data = (await response.json().catch(() => undefined)) as unknown;
  if (!response.ok) throw toApiError(response, data);
  return data as T;
}

/** GET of a service path through the console with the session (no typed client: files and 202 answers). */
async function fetchService(service: keyof typeof api, path: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(`/api/services/${service}${path}`, { credentials: 'same-origin', ...init });
  } catch {
    throw new ApiError(0, 'unreachable', 'unreachable');
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Saves a file answer in the browser's downloads. */
async function save(response: Response, filename: string): Promise<void> {
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads a file of a service path through the console and saves it. A file still being made
 * (202: a process PDF, a batch report) is asked for again every second, up to `waitMs`.
 */
export async function download(
  service: keyof typeof api,
  path: string,
  filename: string,
  waitMs = 120_000,
): Promise<void> {
  const until = Date.now() + waitMs;
  for (;;) {
    const response = await fetchService(service, path);
    if (!response.ok) throw toApiError(response, await response.json().catch(() => undefined));
    if (response.status !== 202) return save(response, filename);
    if (Date.now() > until) throw new ApiError(504, 'The file is still being generated; try again later', 'not_ready');
    await pause(1000);
  }
}

/**
 * PUTs a file to a service's upload link (a batch's file_upload_link) through the console: the
 * link's path and signature, on the console's route of that service.
 */
export async function uploadTo(service: keyof typeof api, link: string, file: File): Promise<void> {
  const url = new URL(link, location.origin);
  const response = await fetchService(service, `${url.pathname}${url.search}`, {
    method: 'PUT',
    headers: { 'content-type': file.type || 'application/octet-stream', 'x-csrf-token': csrfToken },
    body: file,
  });
  if (!response.ok) throw toApiError(response, await response.json().catch(() => undefined));
}

export interface Loaded<T> {
  data?: T;
  error?: ApiError;
  loading: boolean;
  reload: () => void;
}

/** Server state of one page: loading, data or error, and a reload (the retry of the error state). */
export function useLoad<T>(load: () => Promise<T>, deps: DependencyList): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  const run = useCallback(load, deps);
  useEffect(() => {
    let live = true;
    setState((s) => ({ data: s.data, loading: true }));
    run().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) =>
        live &&
        setState({
          loading: false,
          error: error instanceof ApiError ? error : new ApiError(0, String(error), 'unreachable'),
        }),
    );
    return () => {
      live = false;
    };
  }, [run, round]);
  return { ...state, reload: () => setRound((r) => r + 1) };
}
