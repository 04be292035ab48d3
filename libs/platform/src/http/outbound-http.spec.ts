import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

import { OutboundAddressPolicy, OutboundHttpClient, OutboundHttpError } from './outbound-http';

describe('OutboundHttpClient (SSRF policy)', () => {
  let server: http.Server;
  let port: number;
  let hits = 0;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits++;
      if (req.url === '/redirect') res.writeHead(302, { location: 'http://127.0.0.1:1/metrics' }).end();
      else if (req.url === '/big') res.end(Buffer.alloc(2_000_000));
      else if (req.url === '/count') {
        let n = 0;
        req.on('data', (c: Buffer) => (n += c.length));
        req.on('end', () => res.end(String(n)));
      } else res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise((r) => server.close(r)));

  const reason = (p: Promise<unknown>) =>
    p.then(
      () => 'sent',
      (e: OutboundHttpError) => e.reason,
    );

  it('refuses every spelling of loopback, metadata and internal addresses, without sending anything', async () => {
    const client = new OutboundHttpClient();
    const hosts = [
      '127.0.0.1',
      'localhost',
      '[::1]',
      '0.0.0.0',
      '2130706433',
      '127.1',
      '0x7f000001',
      '0177.0.0.1',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:127.0.0.1]',
      '[::127.0.0.1]',
      '[64:ff9b::7f00:1]',
      '[::]',
      '169.254.169.254',
      '[::ffff:169.254.169.254]',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '[fe80::1]',
      '[fc00::1]',
      '[ff02::1]',
    ];
    for (const host of hosts)
      expect({ host, reason: await reason(client.request({ url: `http://${host}:${port}/metrics` })) }).toEqual({
        host,
        reason: 'blocked_address',
      });
    expect(hits).toBe(0);
  });

  it('reaches an allow-listed range (development), and follows no redirect', async () => {
    const client = OutboundHttpClient.withAllowList('loopback');
    const ok = await client.request({ url: `http://localhost:${port}/` });
    expect(ok.status).toBe(200);
    expect(ok.body.toString()).toBe('ok');
    const redirect = await client.request({ url: `http://127.0.0.1:${port}/redirect` });
    expect(redirect.status).toBe(302);
    expect(hits).toBe(2);
  });

  it('streams a body given as a readable stream', async () => {
    const client = OutboundHttpClient.withAllowList('loopback');
    const chunks = Array.from({ length: 64 }, () => Buffer.alloc(64 * 1024, 1));
    const res = await client.request({
      url: `http://127.0.0.1:${port}/count`,
      method: 'POST',
      headers: { 'content-length': String(64 * 64 * 1024) },
      body: Readable.from(chunks),
    });
    expect(res.body.toString()).toBe(String(64 * 64 * 1024));
  });

  it('reports failures as a small fixed set of reasons (no socket error text to scan ports with)', async () => {
    const client = OutboundHttpClient.withAllowList('127.0.0.0/8');
    expect(await reason(client.request({ url: 'http://127.0.0.1:1/' }))).toBe('connection_failed');
    expect(await reason(client.request({ url: 'ftp://example.com/' }))).toBe('invalid_url');
    expect(await reason(client.request({ url: 'http://user:pw@127.0.0.1/' }))).toBe('invalid_url');
    expect(await reason(client.request({ url: 'http://name.invalid/' }))).toBe('dns_failure');
    expect(await reason(client.request({ url: `http://127.0.0.1:${port}/big`, maxResponseBytes: 1000 }))).toBe(
      'response_too_large',
    );
  });

  it('reuses a kept-alive connection, and sends a GET again once when a reused connection was closed', async () => {
    let connections = 0;
    const served: string[] = [];
    const flaky = http.createServer((req, res) => {
      const socket = req.socket as typeof req.socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      // A later request on a connection finds it closed by the server (as an idle timeout would).
      if (socket.served > 1 && req.url === '/drop') return socket.destroy();
      served.push(`${req.method} ${req.url}`);
      res.end('ok');
    });
    flaky.on('connection', () => connections++);
    await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;
    const client = OutboundHttpClient.withAllowList('loopback');
    try {
      for (let i = 0; i < 3; i++) expect((await client.request({ url: `${base}/` })).status).toBe(200);
      expect(connections).toBe(1);
      expect((await client.request({ url: `${base}/drop` })).status).toBe(200);
      expect(connections).toBe(2);
      // A POST is never sent twice: the caller learns the outcome is unknown.
      await client.request({ url: `${base}/`, method: 'POST', body: 'x' });
      expect(await reason(client.request({ url: `${base}/drop`, method: 'POST', body: 'x' }))).toBe(
        'connection_failed',
      );
      expect(served.filter((s) => s === 'POST /drop')).toEqual([]);
    } finally {
      client.onApplicationShutdown();
      await new Promise((r) => flaky.close(r));
    }
  });

  it('gives up on a server that does not answer in time, on a new or a reused connection', async () => {
    let answered = 0;
    const slow = http.createServer((req, res) => {
      if (req.url === '/fast') {
        answered++;
        res.end('ok');
      }
      // '/silent' is never answered.
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    const client = OutboundHttpClient.withAllowList('loopback');
    try {
      expect(await reason(client.request({ url: `${base}/silent`, timeoutMs: 200 }))).toBe('timeout');
      expect((await client.request({ url: `${base}/fast` })).status).toBe(200);
      expect(await reason(client.request({ url: `${base}/silent`, timeoutMs: 200 }))).toBe('timeout');
      expect(answered).toBe(1);
    } finally {
      client.onApplicationShutdown();
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  });

  it('classifies addresses: public ones pass, the allow-list takes exact entries and CIDR ranges', () => {
    const policy = new OutboundAddressPolicy('10.9.0.0/16, ::1');
    expect(policy.permits('93.184.216.34')).toBe(true);
    expect(policy.permits('2606:4700::1111')).toBe(true);
    expect(policy.permits('10.9.3.4')).toBe(true);
    expect(policy.permits('10.8.3.4')).toBe(false);
    expect(policy.permits('::1')).toBe(true);
    expect(policy.permits('127.0.0.1')).toBe(false);
    expect(policy.permits('::ffff:10.9.0.1')).toBe(true);
    // Asked again, the remembered answers are the same.
    expect(['93.184.216.34', '10.8.3.4', '127.0.0.1', '10.9.3.4'].map((a) => policy.permits(a))).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect(() => new OutboundAddressPolicy('nonsense')).toThrow(/OUTBOUND_HTTP_ALLOW/);
  });
});
