import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

import { OutboundHttpClient } from '@kyc/platform';

import { EngagementConfig } from '../config/engagement.config';
import { ProviderHttpClient, ProviderUnreachableError } from './provider-http.client';

describe('ProviderHttpClient (through the platform OutboundHttpClient)', () => {
  let server: Server;
  let url: string;
  let last: { method?: string; type?: string; length?: string; body: string; raw: Buffer };
  const config = Object.assign(new EngagementConfig(), { ENGAGEMENT_PROVIDER_TIMEOUT_MS: 2_000 });

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        last = {
          method: req.method,
          type: req.headers['content-type'],
          length: req.headers['content-length'],
          body: raw.toString(),
          raw,
        };
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
    expect(last).toMatchObject({ method: 'POST', type: 'application/json', length: '7', body: '{"a":1}' });
    expect((await client.request({ method: 'GET', url: `${url}/fail` })).status).toBe(400);
  });

  it('streams a multipart body with its exact length, readable by a multipart parser', async () => {
    const client = new ProviderHttpClient(OutboundHttpClient.withAllowList('loopback'), config);
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 256));
    await client.request({
      method: 'POST',
      url: `${url}/pn/media`,
      multipart: {
        fields: { messaging_product: 'whatsapp', type: 'image/png' },
        file: {
          name: 'file',
          filename: 'upload',
          contentType: 'image/png',
          size: bytes.length,
          // In small pieces, as a file stream reads them.
          open: () => Readable.from(Array.from({ length: 30 }, (_, i) => bytes.subarray(i * 10_000, (i + 1) * 10_000))),
        },
      },
    });
    expect(last.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(Number(last.length)).toBe(last.raw.length);
    const form = await new Response(last.raw, { headers: { 'content-type': last.type! } }).formData();
    expect(form.get('messaging_product')).toBe('whatsapp');
    const file = form.get('file') as File;
    expect(file.name).toBe('upload');
    expect(file.type).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses an address the SSRF policy blocks (loopback without the exception), unreachable', async () => {
    const client = new ProviderHttpClient(OutboundHttpClient.withAllowList(''), config);
    await expect(client.request({ method: 'GET', url: `${url}/x` })).rejects.toThrow(ProviderUnreachableError);
    await expect(client.request({ method: 'GET', url: 'http://169.254.169.254/latest' })).rejects.toThrow(
      /blocked_address/,
    );
  });
});
