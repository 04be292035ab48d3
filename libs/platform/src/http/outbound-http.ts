import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Readable } from 'node:stream';

import { Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';

import { PlatformConfig } from '../config/platform.config';

/**
 * The one HTTP client for calls a tenant can aim (rules engine `http_request` actions; engagement
 * webhooks and identity redirects later). Policy (docs/decisions/ssrf-outbound-http.md):
 * - http and https only, to a host name or an IP address in any spelling the WHATWG URL parser
 *   accepts (`127.1`, `2130706433`, `0x7f000001` and `[::ffff:127.0.0.1]` are all normalized
 *   before the check);
 * - the host is resolved once, and every address it resolves to must be public: loopback,
 *   private, link-local, CGNAT, multicast, unspecified, reserved and documentation ranges are
 *   refused, in IPv4, IPv6 and IPv4-mapped / -compatible / NAT64 / 6to4 / Teredo forms;
 * - the connection goes to the address that was checked (the socket's lookup is the check), so
 *   a second DNS answer cannot rebind it;
 * - redirects are not followed (a 3xx is returned as it is);
 * - exceptions for development come from OUTBOUND_HTTP_ALLOW (CIDR ranges, addresses,
 *   `loopback`, `private`);
 * - failures are a small fixed set of reasons (OutboundFailure), never the socket's error text:
 *   a refused port and an unreachable host read the same, so the records do not scan ports;
 * - connections are kept alive and reused (one pool per client, so per allow-list): a pooled
 *   socket is one this client connected to an address its policy checked, so reusing it reaches
 *   the same checked address, never a new DNS answer.
 */
export type OutboundFailure =
  | 'invalid_url'
  | 'blocked_address'
  | 'dns_failure'
  | 'connection_failed'
  | 'tls_failure'
  | 'timeout'
  | 'response_too_large';

export class OutboundHttpError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    message: string = reason,
  ) {
    super(message);
    this.name = 'OutboundHttpError';
  }
}

export interface OutboundRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /**
   * The body: text or bytes, or a stream piped to the connection as it reads (a large upload is
   * never held whole; give `content-length` in the headers when it is known). A streamed request
   * is never sent a second time.
   */
  body?: string | Buffer | Readable;
  /** Whole request, connection included (default 10 s). */
  timeoutMs?: number;
  /** Bytes of response body kept (default 1 MiB); a longer body fails with response_too_large. */
  maxResponseBytes?: number;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const BLOCKED_V4 = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const;

const BLOCKED_V6 = [
  ['::', 128], // unspecified
  ['::1', 128],
  ['::', 96], // IPv4-compatible (deprecated)
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local
  ['ff00::', 8], // multicast
] as const;

const blocked = new net.BlockList();
for (const [a, p] of BLOCKED_V4) blocked.addSubnet(a, p, 'ipv4');
for (const [a, p] of BLOCKED_V6) blocked.addSubnet(a, p, 'ipv6');

const GROUPS: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  private: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
};

/** Expands an IPv6 address to its 8 groups of 16 bits. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const v4 = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (v4) {
    const [a, b, c, d] = v4[1].split('.').map(Number);
    text = text.slice(0, -v4[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array.from({ length: 8 - h.length - t.length }, () => '0');
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  const isMapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
  const isNat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (!isMapped && !isNat64) return undefined;
  return [g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff].join('.');
}

/** Addresses whose policy answer a client keeps. */
const MAX_REMEMBERED_ANSWERS = 1_024;

/** Which addresses outbound calls may reach: public ones, plus the allow-list's exceptions. */
export class OutboundAddressPolicy {
  private readonly allowed = new net.BlockList();
  readonly allowList: string[];

  /** `allow`: OUTBOUND_HTTP_ALLOW, comma-separated CIDR ranges, addresses, `loopback`, `private`. */
  constructor(allow = '') {
    this.allowList = allow
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const entry of this.allowList) {
      const group = GROUPS[entry.toLowerCase()];
      if (group) {
        for (const [a, p, t] of group) this.allowed.addSubnet(a, p, t);
        continue;
      }
      const [address, prefix] = entry.split('/');
      const type = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : undefined;
      if (!type) throw new Error(`OUTBOUND_HTTP_ALLOW: ${entry} is not an address, a CIDR range, loopback or private`);
      if (prefix === undefined) this.allowed.addAddress(address, type);
      else this.allowed.addSubnet(address, Number(prefix), type);
    }
  }

  /**
   * Answers already given, by address: the policy never changes, and a client calls the same few
   * addresses over and over (a provider's, a tenant's webhook). Bounded: emptied when full.
   */
  private readonly answers = new Map<string, boolean>();

  /** True when a resolved address (IPv4 or IPv6, no brackets) may be called. */
  permits(address: string): boolean {
    let answer = this.answers.get(address);
    if (answer === undefined) {
      answer = this.check(address);
      if (this.answers.size >= MAX_REMEMBERED_ANSWERS) this.answers.clear();
      this.answers.set(address, answer);
    }
    return answer;
  }

  private check(address: string): boolean {
    let ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
    let type: 'ipv4' | 'ipv6' | undefined = net.isIPv4(ip) ? 'ipv4' : net.isIPv6(ip) ? 'ipv6' : undefined;
    if (!type) return false;
    if (type === 'ipv6') {
      const v4 = embeddedIpv4(ip);
      if (v4) [ip, type] = [v4, 'ipv4'];
    }
    if (this.allowed.check(ip, type)) return true;
    return !blocked.check(ip, type);
  }
}

/** A reused keep-alive connection was found closed before any answer (internal: mapped in request()). */
class StaleConnectionError extends Error {}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** Idle pooled sockets closed after this, below the usual servers' keep-alive (Node's 5 s). */
const FREE_SOCKET_TIMEOUT_MS = 4_000;

/** Methods a client may send again when a reused keep-alive socket turns out closed by the server. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

@Injectable()
export class OutboundHttpClient implements OnApplicationShutdown {
  readonly policy: OutboundAddressPolicy;
  /**
   * Keep-alive pools: a call reuses an idle connection to the same host and port instead of a new
   * TCP (and TLS) handshake each time. Their sockets were all opened through `lookup` below.
   */
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, timeout: FREE_SOCKET_TIMEOUT_MS, scheduling: 'lifo' }),
    https: new https.Agent({ keepAlive: true, timeout: FREE_SOCKET_TIMEOUT_MS, scheduling: 'lifo' }),
  };

  constructor(@Optional() config?: PlatformConfig) {
    this.policy = new OutboundAddressPolicy(config?.OUTBOUND_HTTP_ALLOW ?? '');
  }

  onApplicationShutdown(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** A client with another allow-list (tests, tools). */
  static withAllowList(allow: string): OutboundHttpClient {
    return new OutboundHttpClient(Object.assign(new PlatformConfig(), { OUTBOUND_HTTP_ALLOW: allow }));
  }

  /** Sends one request under the policy; throws OutboundHttpError with one of the fixed reasons. */
  async request(req: OutboundRequest): Promise<OutboundResponse> {
    try {
      return await this.send(req);
    } catch (err) {
      // A pooled connection the server closed while idle fails before anything was answered: a
      // request that may be repeated goes again once (on a new or another idle connection).
      if (
        err instanceof StaleConnectionError &&
        IDEMPOTENT.has((req.method ?? 'GET').toUpperCase()) &&
        !(req.body instanceof Readable)
      )
        return this.send(req);
      throw err instanceof StaleConnectionError ? new OutboundHttpError('connection_failed') : err;
    }
  }

  private send(req: OutboundRequest): Promise<OutboundResponse> {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return Promise.reject(new OutboundHttpError('invalid_url'));
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password)
      return Promise.reject(new OutboundHttpError('invalid_url'));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) && !this.policy.permits(host)) return Promise.reject(new OutboundHttpError('blocked_address'));

    const timeoutMs = req.timeoutMs ?? 10_000;
    const maxBytes = req.maxResponseBytes ?? 1_048_576;
    let blockedName = false;
    // The socket connects to what this returns: the checked addresses, nothing resolved later.
    const lookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
      dns.lookup(hostname, { all: true, family: options.family, hints: options.hints }, (err, addresses) => {
        if (err) return callback(err, []);
        if (!addresses.length || addresses.some((a) => !this.policy.permits(a.address))) {
          blockedName = true;
          return callback(Object.assign(new Error('blocked'), { code: 'EBLOCKED' }), []);
        }
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      });
    };
    const secure = url.protocol === 'https:';
    const transport = secure ? https : http;
    return new Promise<OutboundResponse>((resolve, reject) => {
      let settled = false;
      let answered = false;
      // One timer bounds the whole call (connection, request, answer): no socket timeout to arm and
      // disarm on the pooled socket at each call.
      const timer = setTimeout(() => {
        fail('timeout');
        request.destroy();
      }, timeoutMs);
      const fail = (reason: OutboundFailure, error: Error = new OutboundHttpError(reason)) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        reject(error);
      };
      const request = transport.request(
        url,
        {
          method: req.method ?? 'GET',
          headers: req.headers,
          lookup: lookup,
          agent: secure ? this.agents.https : this.agents.http,
        },
        (res) => {
          answered = true;
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              res.destroy();
              request.destroy();
              return fail('response_too_large');
            }
            chunks.push(chunk);
          });
          res.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
          });
          res.on('error', () => fail('connection_failed'));
        },
      );
      request.on('error', (err: NodeJS.ErrnoException) => {
        if (blockedName || err.code === 'EBLOCKED') return fail('blocked_address');
        if (request.reusedSocket && !answered && (err.code === 'ECONNRESET' || err.code === 'EPIPE'))
          return fail('connection_failed', new StaleConnectionError());
        if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN' || err.code === 'ENODATA') return fail('dns_failure');
        if (/CERT|SSL|TLS|ERR_SSL|DEPTH_ZERO|SELF_SIGNED/i.test(`${err.code ?? ''} ${err.message}`))
          return fail('tls_failure');
        fail('connection_failed');
      });
      const body = req.body;
      if (body instanceof Readable) {
        body.once('error', () => {
          request.destroy();
          fail('connection_failed');
        });
        request.once('close', () => body.destroy());
        body.pipe(request);
      } else request.end(body);
    });
  }
}
