import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { OutboundHttpClient } from '@kyc/platform';

import { EngagementConfig } from '../config/engagement.config';
import { ProviderHttpClient, ProviderUnreachableError } from './provider-http.client';

describe('ProviderHttpClient (through the platform OutboundHttpClient)', () => {
  let server: Server;
  let url: string;
  let last: { method?: string; type?: string; body: string };
  const config = Object.assign(new EngagementConfig(), { ENGAGEMENT_PROVIDER_TIMEOUT_MS: 2_000 });

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        last = { method: req.method, type: req.headers['content-type'], body: Buffer.concat(chunks).toString() };
        res.writeHead(req.url === '/fail' ? 400 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(req.url === '/fail' ? { error: { message: 'bad', code: 100 } } : { id: '42' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends JSON and reads the JSON answer, 4xx included, when the policy allows the address', async () => {
    const client = new ProviderHttpClient(OutboundHttpClient.withAllowList('loopback'), config);
    expect(await client.request({ method: 'POST', url: `${url}/x/messages`, json: { a: 1 } })).toEqual({
      status: 200,
      body: { id: '42' },
    });
    expect(last).toEqual({ method: 'POST', type: 'application/json', body: '{"a":1}' });
    expect((await client.request({ method: 'GET', url: `${url}/fail` })).status).toBe(400);
  });

  it('encodes FormData as multipart', async () => {
    const client = new ProviderHttpClient(OutboundHttpClient.withAllowList('loopback'), config);
    const form = new FormData();
    form.append('messaging_product', 'whatsapp');
    form.append('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'upload');
    await client.request({ method: 'POST', url: `${url}/pn/media`, form });
    expect(last.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(last.body).toContain('name="messaging_product"');
    expect(last.body).toContain('filename="upload"');
  });

  it('refuses an address the SSRF policy blocks (loopback without the exception), unreachable', async () => {
    const client = new ProviderHttpClient(OutboundHttpClient.withAllowList(''), config);
    await expect(client.request({ method: 'GET', url: `${url}/x` })).rejects.toThrow(ProviderUnreachableError);
    await expect(client.request({ method: 'GET', url: 'http://169.254.169.254/latest' })).rejects.toThrow(
      /blocked_address/,
    );
  });
});
