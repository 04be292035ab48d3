import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

import { OutboundHttpClient, OutboundHttpError } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { EngagementConfig } from '../config/engagement.config';

export interface ProviderHttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  /** A JSON body (serialized here) or a multipart one (streamed). */
  json?: unknown;
  multipart?: MultipartBody;
}

/** A multipart/form-data body: text fields, then one file streamed from its source. */
export interface MultipartBody {
  fields: Record<string, string>;
  file: { name: string; filename: string; contentType: string; size: number; open(): Readable };
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
    let body: Buffer | Readable | undefined;
    if (req.multipart) {
      const encoded = encodeMultipart(req.multipart);
      headers['content-type'] = encoded.contentType;
      headers['content-length'] = String(encoded.length);
      body = encoded.stream;
    } else if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = Buffer.from(JSON.stringify(req.json), 'utf8');
      headers['content-length'] = String(body.length);
    }
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

const quoted = (text: string) => text.replace(/["\r\n\\]/g, '_');

/**
 * Encodes a multipart body as a stream with its exact length: the fields and the file's part
 * header, the file as its source reads it (never held whole), then the closing boundary.
 */
export function encodeMultipart(body: MultipartBody): { contentType: string; length: number; stream: Readable } {
  const boundary = `----engagement${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    Object.entries(body.fields)
      .map(
        ([name, value]) =>
          `--${boundary}\r\ncontent-disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
      )
      .join('') +
      `--${boundary}\r\ncontent-disposition: form-data; name="${quoted(body.file.name)}"; filename="${quoted(body.file.filename)}"\r\n` +
      `content-type: ${body.file.contentType}\r\n\r\n`,
    'utf8',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  const file = body.file;
  async function* parts() {
    yield head;
    yield* file.open();
    yield tail;
  }
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + file.size + tail.length,
    stream: Readable.from(parts(), { objectMode: false }),
  };
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(invalid URL)';
  }
}
