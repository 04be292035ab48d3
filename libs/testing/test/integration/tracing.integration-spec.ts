import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';

import { ApiClient } from '../../src/api-client';
import { closeDb, eventually, freePort, harness, repoRoot, ServiceProcess, startProcess } from '../../src/harness';
import { createTenant, TestTenant } from '../../src/tenants';

/** A span as the OTLP/HTTP JSON protocol carries it, with the service that sent it. */
interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: (Omit<ExportedSpan, 'service' | 'attributes'> & { attributes?: OtlpAttribute[] })[] }[];
  }[];
}

const attributes = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(list.map((a) => [a.key, a.value.stringValue ?? a.value.intValue]));

/** A minimal OTLP/HTTP (JSON protocol) trace receiver: what a collector at OTEL_EXPORTER_OTLP_ENDPOINT gets. */
async function startCollector() {
  const spans: ExportedSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpRequest;
        for (const rs of body.resourceSpans ?? []) {
          const service = String(attributes(rs.resource?.attributes)['service.name']);
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              spans.push({
                ...s,
                service,
                attributes: attributes(s.attributes),
                parentSpanId: s.parentSpanId || undefined,
              });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The tenant's rule action target: records the requests (and their traceparent). */
async function startHookReceiver() {
  const requests: { path: string; traceparent?: string }[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push({ path: req.url ?? '/', traceparent: req.headers.traceparent as string | undefined });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * OpenTelemetry across services (docs/operations.md, "Tracing"): checks and account run as their
 * own OS processes from dist/, as in production, exporting OTLP/HTTP to a receiver in this test.
 * One trace covers POST /v1/checks → the engine's jobs → checks.check.finished through the outbox
 * and Kafka → account's rules engine → the rule's http_request action.
 */
describe('traces across services', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let hooks: Awaited<ReturnType<typeof startHookReceiver>>;
  let checks: ServiceProcess;
  let account: ServiceProcess;
  let tenant: TestTenant;
  let checksPort: number;

  beforeAll(async () => {
    [collector, hooks] = await Promise.all([startCollector(), startHookReceiver()]);
    const otel = (service: string) => ({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_SERVICE_NAME: `${service}-traced`,
    });
    checksPort = await freePort();
    [checks, account] = await Promise.all([
      // LOG_LEVEL info: the access log lines are read below.
      startProcess('checks', checksPort, { ...otel('checks'), LOG_LEVEL: 'info' }),
      startProcess('account', await freePort(), {
        ...otel('account'),
        KAFKA_CONSUMER_GROUP: `account-tracing-${randomUUID().slice(0, 8)}`,
      }),
    ]);
    tenant = await createTenant(account.url, [checks.url]);
  });

  afterAll(async () => {
    await Promise.all([checks?.kill(), account?.kill()]);
    await Promise.all([collector?.close(), hooks?.close()]);
    await closeDb();
  });

  it('one trace id covers the request, the engine, the event, its consumer and the rule action', async () => {
    const accountApi = new ApiClient(account.url, tenant.apiKey);
    const hookPath = `/hooks/${randomUUID()}`;
    const rule = await accountApi.postJson('/v1/bre/rules', {
      name: 'traced rule',
      event_type: 'checks.check.finished',
      condition: { '==': [{ var: 'country' }, 'CO'] },
    });
    expect(rule.status).toBe(201);
    const action = await accountApi.postJson(`/v1/bre/rules/${rule.body.rule.rule_id}/actions`, {
      name: 'notify',
      type: 'http_request',
      config: { url: `${hooks.url}${hookPath}/{{.check_id}}` },
    });
    expect(action.status).toBe(201);

    const created = await new ApiClient(checks.url, tenant.apiKey).post('/v1/checks', {
      country: 'CO',
      type: 'person',
      user_authorized: 'true',
      national_id: String(Date.now()).slice(-10),
    });
    expect(created.status).toBe(201);
    const checkId = created.body.check.check_id as string;

    // The action's request carries the trace on the wire (the http client instrumentation).
    const hook = await eventually(
      () => {
        const found = hooks.requests.find((r) => r.path === `${hookPath}/${checkId}`);
        if (!found) throw new Error('the rule action has not called yet');
        return found;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(hook.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const traceId = hook.traceparent!.split('-')[1];

    const inTrace = () => collector.spans.filter((s) => s.traceId === traceId);
    const find = (service: string, test: (s: ExportedSpan) => boolean) =>
      inTrace().find((s) => s.service === service && test(s));
    await eventually(
      () => {
        const found = {
          request: find('checks-traced', (s) => s.kind === 2 && !s.parentSpanId),
          route: find('checks-traced', (s) => s.attributes['http.route'] === '/v1/checks'),
          engine: find('checks-traced', (s) => s.name === 'job checks.start.waiting'),
          consumed: find('account-traced', (s) => s.name === 'process checks.check.finished'),
          action: find('account-traced', (s) => s.name === 'job bre.http_request'),
          call: find('account-traced', (s) => s.kind === 3 && s.spanId === hook.traceparent!.split('-')[2]),
        };
        for (const [what, span] of Object.entries(found)) if (!span) throw new Error(`no ${what} span yet`);
        const spans = found as Record<keyof typeof found, ExportedSpan>;
        // The root is checks' HTTP server span of POST /v1/checks; nothing in the trace is another root.
        expect(spans.request.attributes['http.request.method'] ?? spans.request.attributes['http.method']).toBe('POST');
        expect(inTrace().filter((s) => !s.parentSpanId)).toEqual([spans.request]);
        // Every span's parent is in the trace: the hops (request → job → event → consumer → job) are parent links.
        const byId = new Map(inTrace().map((s) => [s.spanId, s]));
        expect(inTrace().filter((s) => s.parentSpanId && !byId.has(s.parentSpanId))).toEqual([]);
        const ancestors = (span: ExportedSpan) => {
          const chain: ExportedSpan[] = [];
          for (let s = span; s.parentSpanId; s = byId.get(s.parentSpanId)!) chain.push(byId.get(s.parentSpanId)!);
          return chain;
        };
        expect(ancestors(spans.call)).toEqual(expect.arrayContaining([spans.action, spans.consumed, spans.request]));
        expect(ancestors(spans.consumed)).toContain(spans.engine);
        // The consumer's parent is the checks span that wrote the finished event (the outbox → Kafka headers hop).
        expect(byId.get(spans.consumed.parentSpanId!)!.service).toBe('checks-traced');
        expect(ancestors(spans.engine)).toContain(spans.request);
        // The job queue's claims (woken by the request's commit) are not part of the request's trace.
        expect(
          inTrace().filter((s) =>
            `${s.attributes['db.query.text'] as string | undefined}`.includes('locked_until AS due'),
          ),
        ).toEqual([]);
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );

    // Database queries of the request are traced, without their bound values.
    const query = inTrace().find(
      (s) =>
        s.service === 'checks-traced' && (s.attributes['db.system.name'] ?? s.attributes['db.system']) === 'postgresql',
    );
    expect(query).toBeDefined();
    expect(JSON.stringify(query!.attributes)).not.toContain(checkId);
    // The request's access log line points at its trace.
    const lines = readFileSync(path.join(harness().dir, `checks-${checksPort}.log`), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => l.route === '/v1/checks' && l.method === 'POST')).toMatchObject({
      status: 201,
      tenant_id: tenant.tenantId,
      trace_id: traceId,
    });
  });

  it('loads no OpenTelemetry SDK module without OTEL_EXPORTER_OTLP_ENDPOINT (and does with it)', () => {
    const dist = path.join(repoRoot, 'dist/libs/platform/src');
    // What a service's main.js loads first (the tracing entry), then the whole platform library.
    const script = `require(${JSON.stringify(`${dist}/tracing.js`)}); require(${JSON.stringify(`${dist}/index.js`)});
      process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((k) => k.includes('/@opentelemetry/'))));`;
    const loaded = (env: Record<string, string>) => {
      const { OTEL_EXPORTER_OTLP_ENDPOINT: _a, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: _b, ...rest } = process.env;
      return JSON.parse(
        execFileSync(process.execPath, ['-e', script], { env: { ...rest, ...env } }).toString(),
      ) as string[];
    };
    // prom-client loads the API package (a no-op without an SDK) whatever tracing does; nothing else.
    const sdk = (files: string[]) => files.filter((f) => !f.includes('/@opentelemetry/api/'));
    expect(sdk(loaded({}))).toEqual([]);
    const on = sdk(loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }));
    expect(on.some((f) => f.includes('/@opentelemetry/sdk-trace-node/'))).toBe(true);
    expect(on.some((f) => f.includes('/@opentelemetry/instrumentation-pg/'))).toBe(true);
    // Every service starts tracing before anything else: its main.js requires the entry first.
    for (const service of ['account', 'checks', 'customers', 'engagement', 'identity', 'pass', 'validations']) {
      const main = readFileSync(path.join(repoRoot, 'dist/apps', service, 'src/main.js'), 'utf8');
      expect(main.match(/require\("([^"]+)"\)/)?.[1]).toBe('../../../libs/platform/src/tracing');
    }
  });
});
