import http from 'node:http';

import {
  ApiClient,
  closeDb,
  createRoleUser,
  createTenant,
  freePorts,
  ServiceProcess,
  startProcess,
  TestTenant,
} from '../../src';

/** One raw HTTP request (for what fetch will not send: chunked bodies, oversized headers, bad URLs). */
function raw(
  url: string,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    chunks?: Buffer[];
    /** After the chunks, wait for the answer without ending the body (a body the server refuses part-way). */
    holdOpen?: boolean;
  },
): Promise<{ status: number; body: unknown; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = http.request({
      host: hostname,
      port,
      method: options.method ?? 'POST',
      path: options.path,
      headers: options.headers,
    });
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body, ms: Date.now() - started });
        req.destroy();
      });
    });
    req.on('error', reject);
    if (options.chunks) {
      const write = (i: number): void => {
        if (i >= options.chunks!.length) return options.holdOpen ? undefined : void req.end();
        if (!req.write(options.chunks![i])) req.once('drain', () => write(i + 1));
        else setImmediate(() => write(i + 1));
      };
      req.on('error', () => undefined);
      write(0);
    } else req.end(options.body);
  });
}

const anyString: unknown = expect.any(String);
const envelopeOf = (status: number): unknown =>
  expect.objectContaining({ code: status, status: anyString, message: anyString });

/**
 * Issue 16, points 1 and 4, at the HTTP boundary of the real services (as processes, from dist):
 * a request's cost is bounded before and after authentication, and bad input gets a 4xx in the
 * envelope, never a 5xx.
 */
describe('request hardening (platform, every service)', () => {
  let account: ServiceProcess;
  let checks: ServiceProcess;
  let tenant: TestTenant;
  let metricsPort: number;

  beforeAll(async () => {
    const [accountPort, checksPort, metrics] = await freePorts(3);
    metricsPort = metrics;
    [account, checks] = await Promise.all([
      startProcess('account', accountPort),
      // As deployed: /metrics on a port of its own.
      startProcess('checks', checksPort, { METRICS_PORT: String(metricsPort) }),
    ]);
    tenant = await createTenant(account.url, [account.url, checks.url]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([account?.close(), checks?.close()]);
    await closeDb();
  });

  it('answers a large body without a key with 401 before reading it, while /health keeps its latency', async () => {
    const big = Buffer.alloc(40 * 1024 * 1024, 'a');
    const attacks = [1, 2, 3].map(() =>
      raw(checks.url, {
        path: '/v1/checks',
        headers: { 'content-type': 'application/json', 'content-length': String(big.length) },
        body: big,
      }).catch(() => ({ status: 0, body: undefined, ms: 0 })),
    );
    const started = Date.now();
    const health = await fetch(`${checks.url}/health`);
    const healthMs = Date.now() - started;
    const answers = await Promise.all(attacks);
    for (const a of answers.filter((x) => x.status !== 0)) {
      expect(a.status).toBe(401);
      expect(a.body).toEqual(envelopeOf(401));
      expect(a.ms).toBeLessThan(1_000);
    }
    expect(health.status).toBe(200);
    expect(healthMs).toBeLessThan(500);
  });

  it('refuses a JSON or form body beyond the default limit (1 MiB) with 413, declared or chunked', async () => {
    const api = new ApiClient(checks.url, tenant.apiKey);
    const declared = await api.postJson('/v1/checks', { country: 'CO', type: 'person', pad: 'x'.repeat(1_100_000) });
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual(envelopeOf(413));
    const chunked = await raw(checks.url, {
      path: '/v1/checks',
      headers: { 'content-type': 'application/json', 'service-api-key': tenant.apiKey, 'transfer-encoding': 'chunked' },
      // Just past the limit, then wait: the server answers 413 part-way, and a client still writing
      // when it closes the connection would see EPIPE instead of the answer.
      chunks: [Buffer.from('{"pad":"'), ...Array.from({ length: 11 }, () => Buffer.alloc(100_000, 'x'))],
      holdOpen: true,
    });
    expect(chunked.status).toBe(413);
    expect(chunked.body).toEqual(envelopeOf(413));
  });

  it('answers adversarial shapes fast with a 4xx envelope, and other requests keep their latency', async () => {
    const api = new ApiClient(account.url, tenant.apiKey);
    const manyForm = Array.from({ length: 100_000 }, (_, i) => `k${i}=`).join('&');
    const manyJson = JSON.stringify(Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, 1])));
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const deepObject = '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000);
    const shapes: [string, string][] = [
      ['application/x-www-form-urlencoded', manyForm],
      ['application/json', manyJson],
      ['application/json', deep],
      ['application/json', deepObject],
      ['application/json', `{"name":"a","condition":${'{"!":'.repeat(1_000)}true${'}'.repeat(1_000)}}`],
    ];
    const meanLatency = async () => {
      const started = Date.now();
      for (let i = 0; i < 5; i++) expect((await api.get('/v1/auth/whoami')).status).toBe(200);
      return (Date.now() - started) / 5;
    };
    const before = await meanLatency();
    for (const url of [account.url, checks.url])
      for (const path of url === account.url ? ['/v1/roles', '/v1/bre/rules'] : ['/v1/checks'])
        for (const [type, body] of shapes) {
          const res = await raw(url, {
            path,
            headers: { 'content-type': type, 'service-api-key': tenant.apiKey },
            body,
          });
          expect([400, 413]).toContain(res.status);
          expect(res.body).toEqual(envelopeOf(res.status));
          expect(res.ms).toBeLessThan(1_500);
        }
    const after = await meanLatency();
    expect(after).toBeLessThan(Math.max(100, before * 5));
  });

  it('refuses NUL bytes and unpaired surrogates in bodies, query strings and paths with a 400 naming the field', async () => {
    const acc = new ApiClient(account.url, tenant.apiKey);
    const chk = new ApiClient(checks.url, tenant.apiKey);
    const answers = [
      await acc.post('/v1/roles', { name: 'ok\u0000no', permissions: 'checks.behavior' }),
      await acc.postJson('/v1/roles', { name: 'ok\ud800', permissions: ['checks.behavior'] }),
      await chk.post('/v1/checks', { country: 'CO', type: 'person', national_id: '1\u00002' }),
      await chk.get('/v1/checks?report_id=%00'),
      await acc.get('/v1/account/users/%00'),
      await chk.get('/v1/checks/CHK%00x'),
      await acc.get('/v1/roles/a%ED%A0%80'),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(envelopeOf(400));
    }
    const fieldsOf = (res: { body: unknown }) => (res.body as { fields?: unknown }).fields;
    expect(fieldsOf(answers[0])).toEqual([expect.objectContaining({ field: 'name' })]);
    expect(fieldsOf(answers[3])).toEqual([expect.objectContaining({ field: 'report_id' })]);
  });

  it('answers a caller without the permission 403 before looking at the body (NUL, bad fields, adversarial shapes)', async () => {
    const weak = await createRoleUser(account.url, tenant, { name: 'checks-only', permissions: ['checks.behavior'] });
    const api = new ApiClient(account.url, weak.apiKey);
    const answers = [
      await api.post('/v1/roles', { name: 'ok\u0000no', permissions: 'checks.behavior' }),
      await api.postJson('/v1/roles', { name: 'ok\ud800', permissions: ['checks.behavior'] }),
      await api.postJson('/v1/roles', { name: 5 }),
      await api.get('/v1/roles?start_key=%00'),
    ];
    for (const res of answers) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(expect.objectContaining({ code: 403, error_code: 'forbidden' }));
    }
  });

  it('answers an unknown method on a known path with 405 and Allow, an unknown path with 404', async () => {
    const deleted = await fetch(`${checks.url}/v1/checks`, {
      method: 'DELETE',
      headers: { 'service-api-key': tenant.apiKey },
    });
    expect(deleted.status).toBe(405);
    expect(deleted.headers.get('allow')?.split(', ')).toEqual(expect.arrayContaining(['GET', 'POST']));
    expect(await deleted.json()).toEqual(expect.objectContaining({ code: 405, error_code: 'method_not_allowed' }));
    const patched = await fetch(`${account.url}/v1/roles/some-role`, { method: 'PATCH' });
    expect(patched.status).toBe(405);
    expect(patched.headers.get('allow')?.split(', ')).toEqual(expect.arrayContaining(['GET', 'PUT', 'DELETE']));
    expect((await fetch(`${checks.url}/v1/nothing-here`, { method: 'DELETE' })).status).toBe(404);
  });

  it('answers a path that is a route of its own only with its methods, never with the route of a parameter it matches', async () => {
    // GET /v1/checks/health is a route; /v1/checks/{check_id} answers GET and DELETE
    for (const method of ['DELETE', 'OPTIONS']) {
      const res = await fetch(`${checks.url}/v1/checks/health`, {
        method,
        headers: { 'service-api-key': tenant.apiKey },
      });
      expect(res.status).toBe(405);
      const allow = res.headers.get('allow')?.split(', ');
      expect(allow).toContain('GET');
      expect(allow).not.toContain('DELETE');
      expect(await res.json()).toEqual(expect.objectContaining({ code: 405, error_code: 'method_not_allowed' }));
    }
    const health = await fetch(`${checks.url}/v1/checks/health`, { headers: { 'service-api-key': tenant.apiKey } });
    expect(health.status).not.toBe(405); // its own method reaches its handler
    // a parameter's route still answers its own methods
    const deleted = await fetch(`${checks.url}/v1/checks/CHK0000000000000000000000000000000`, {
      method: 'DELETE',
      headers: { 'service-api-key': tenant.apiKey },
    });
    expect(deleted.status).toBe(404);
  });

  it('refuses crafted start_key values (well-formed base64url of unexpected JSON) on paged lists with 400', async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const refused = [b64({ a: 1 }), b64(['yesterday', 'x']), b64([null, null]), b64(['2026-01-01', 'a', 'b']), '!!'];
    // The id part must be of the id column's type: users and audit entries have uuid ids.
    const notUuid = b64(['2026-01-01T00:00:00.000Z', 'not-a-uuid']);
    const lists: [string, string, string[]][] = [
      [account.url, '/v1/account/users', [...refused, notUuid]],
      [account.url, '/v1/account/audit-log', [...refused, notUuid]],
      [account.url, '/v1/bre/rules', refused],
      [checks.url, '/v1/checks', refused],
    ];
    for (const [url, path, keys] of lists)
      for (const key of keys) {
        const res = await new ApiClient(url, tenant.apiKey).get(`${path}?start_key=${encodeURIComponent(key)}`);
        expect({ path, key, status: res.status }).toEqual({ path, key, status: 400 });
        expect(res.body).toEqual(envelopeOf(400));
      }
  });

  it('serves /metrics on METRICS_PORT only when it is set (deploy manifests), on the service port otherwise', async () => {
    const moved = await fetch(`${checks.url}/metrics`);
    expect(moved.status).toBe(404);
    expect(await moved.json()).toEqual(envelopeOf(404));
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('http_request_duration_seconds');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/health`)).status).toBe(404);
    expect((await fetch(`${account.url}/metrics`)).status).toBe(200);
  });

  it('answers oversized headers and malformed URLs in the envelope', async () => {
    const headers = await raw(account.url, {
      method: 'GET',
      path: '/v1/users',
      headers: { 'x-big': 'a'.repeat(70_000) },
    });
    expect(headers.status).toBe(431);
    expect(headers.body).toEqual(envelopeOf(431));
    const badUrl = await raw(account.url, {
      method: 'GET',
      path: '/v1/users/%zz',
      headers: { 'service-api-key': tenant.apiKey },
    });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body).toEqual(envelopeOf(400));
  });
});
