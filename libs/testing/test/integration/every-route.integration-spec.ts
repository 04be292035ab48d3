import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { SERVICE_NAMES, ServiceName } from '@kyc/contracts';
import fc from 'fast-check';

import {
  ApiClient,
  closeDb,
  createTenant,
  freePorts,
  mintKey,
  repoRoot,
  ServiceProcess,
  signer,
  startProcess,
  TestTenant,
} from '../../src';

/**
 * Every route of every service, on one boot of the seven services.
 *
 * Key types: the route table (tools/docs/route-table.mjs, read from the controllers: the source of
 * docs/security.md's tables) gives each route the key types it takes; every route is called with a
 * backend, a web and an sdk key, a web key bound to no flow, and an operator token, and the guard's
 * decision is asserted for each. The attacks of issue 30 are replayed with a web key issued by
 * identity's API.
 *
 * Fuzz (issue 16, point 4): bad input gets a 4xx envelope, never a 5xx. Reads each service's OpenAPI document (`/docs/openapi.json`) and sends generated bad inputs to
 * every operation (fast-check, property-based): NUL bytes and unpaired surrogates in path
 * parameters, query strings and body fields, crafted `start_key` values (base64url of arbitrary
 * JSON), nulls and wrong types for every declared field, unknown keys, deep JSON, huge key counts,
 * malformed JSON and form bodies. Every answer must be below 500 and every 4xx the error envelope
 * (`{code,status,message}` with `code` the HTTP status; spec 3's RFC 6749 `error` bodies on pass);
 * every service must still be healthy afterwards.
 *
 * CI runs it within a fixed budget (FUZZ_BUDGET_MS, default 40 s of sending, split between the
 * operations; FUZZ_RUNS generated cases per operation, default 10). `npm run fuzz` is the longer
 * run (FUZZ_RUNS=300, FUZZ_BUDGET_MS=600000); FUZZ_SEED replays a failure, FUZZ_SERVICES picks services.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 40_000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const SERVICES = (process.env.FUZZ_SERVICES?.split(',') ?? SERVICE_NAMES) as ServiceName[];

interface Operation {
  service: ServiceName;
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
  contentTypes: string[];
}

interface Schema {
  $ref?: string;
  properties?: Record<string, unknown>;
}
interface OperationObject {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
interface OpenApi {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, Schema> };
}

/** Every operation of a service's document, with the names of its parameters and body fields. */
function operationsOf(service: ServiceName, doc: OpenApi): Operation[] {
  const resolve = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref ? doc.components?.schemas?.[schema.$ref.split('/').pop()!] : schema;
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = [...((item as OperationObject).parameters ?? []), ...(op.parameters ?? [])];
      const content = op.requestBody?.content ?? {};
      const bodyFields = new Set<string>();
      for (const c of Object.values(content))
        for (const name of Object.keys(resolve(c.schema)?.properties ?? {})) bodyFields.add(name);
      ops.push({
        service,
        method: method.toUpperCase(),
        path,
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: [...bodyFields],
        contentTypes: Object.keys(content),
      });
    }
  }
  return ops;
}

/** Percent-encodes any JavaScript string, unpaired surrogates included (as their WTF-8 bytes). */
function pct(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff)
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    else out += encodeURIComponent(ch);
  }
  return out;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v) ?? 'null').toString('base64url');

const nasty = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\udbff\ud800',
  '',
  ' ',
  '%00',
  '../../etc/passwd',
  "' OR 1=1 --",
  '{{7*7}}',
  'null',
  'NaN',
  '-1',
  '1e309',
  '9'.repeat(400),
  'é'.repeat(3000),
  '<script>alert(1)</script>',
  '\r\nX-Injected: 1',
  '00000000-0000-0000-0000-000000000000',
  'CHK00000000000000000000000000000000',
  '2026-13-45T99:99:99Z',
);
/** Strings: the list above, arbitrary UTF-16 (lone surrogates included) and crafted start_keys. */
const evilString = fc.oneof(
  nasty,
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 24 }),
  fc.jsonValue({ maxDepth: 3 }).map(b64),
  fc.tuple(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), fc.oneof(fc.string(), fc.integer())).map(b64),
);
const evilValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: evilString },
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(evilString, { maxLength: 3 }),
  fc.dictionary(evilString, evilString, { maxKeys: 3 }),
);

interface Request {
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** One generated bad request for an operation. */
function requestFor(op: Operation): fc.Arbitrary<Request> {
  const pathValues: fc.Arbitrary<string[]> = fc.tuple<string[]>(
    ...op.pathParams.map(() => fc.oneof(evilString, fc.constant('x'))),
  );
  const query = fc.dictionary(
    fc.oneof(fc.constantFrom(...op.queryParams, 'start_key', 'limit'), evilString),
    evilString,
    { maxKeys: 4 },
  );
  const fields = op.bodyFields.length ? fc.constantFrom(...op.bodyFields) : evilString;
  const jsonBody = fc.dictionary(fc.oneof({ weight: 3, arbitrary: fields }, evilString), evilValue, { maxKeys: 6 });
  const allNull = fc.constant(Object.fromEntries(op.bodyFields.map((f) => [f, null])));
  const body = fc.oneof(
    { weight: 6, arbitrary: jsonBody.map((b) => ({ type: 'application/json', text: JSON.stringify(b) })) },
    { weight: 1, arbitrary: allNull.map((b) => ({ type: 'application/json', text: JSON.stringify(b) })) },
    {
      weight: 3,
      arbitrary: fc.array(fc.tuple(fields, evilString), { maxLength: 6 }).map((pairs) => ({
        type: 'application/x-www-form-urlencoded',
        text: pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&'),
      })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map((n) => ({
        type: 'application/json',
        text: `{"${op.bodyFields[0] ?? 'a'}":${'['.repeat(n)}${']'.repeat(n)}}`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1_001, max: 60_000 }).map((n) => ({
        type: 'application/json',
        text: JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{"a":', 'null', '[]', '"x"', '{"__proto__":{"x":1}}')
        .map((text) => ({ type: 'application/json', text })),
    },
  );
  return fc.record({ values: pathValues, query, body, key: fc.option(evilString, { nil: undefined }) }).map((g) => {
    let path = op.path;
    op.pathParams.forEach((name, i) => (path = path.replace(`{${name}}`, pct(g.values[i]))));
    const qs = Object.entries(g.query)
      .map(([k, v]) => `${pct(k)}=${pct(v)}`)
      .join('&');
    const headers: Record<string, string> = {};
    const hasBody = op.method !== 'GET' && op.method !== 'DELETE';
    if (hasBody) headers['content-type'] = g.body.type;
    if (g.key !== undefined && /^[\x20-\x7e]*$/.test(g.key)) headers['idempotency-key'] = g.key;
    return { path: qs ? `${path}?${qs}` : path, headers, body: hasBody ? g.body.text : undefined };
  });
}

const services = new Map<ServiceName, ServiceProcess>();
let tenant: TestTenant;
let operator: string;

/** The seven services booted once for both parts of this file (the fuzz and the key-type matrix). */
beforeAll(async () => {
  operator = await signer().platformAdminToken('every-route');
  const ports = await freePorts(SERVICES.length);
  // Three at a time (seven Nest processes booting at once on two cores time out), each one
  // registered as soon as it runs so afterAll stops it even if another fails to start.
  const queue = SERVICES.map((name, i) => ({ name, port: ports[i] }));
  const boot = async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      services.set(next.name, await startProcess(next.name, next.port));
  };
  const booted = await Promise.allSettled([boot(), boot(), boot()]);
  const failed = booted.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  const account = services.get('account');
  if (account)
    tenant = await createTenant(
      account.url,
      [...services.values()].map((s) => s.url),
    );
}, 180_000);

afterAll(async () => {
  await Promise.all([...services.values()].map((s) => s.close()));
  await closeDb();
});

interface Route {
  service: ServiceName | '*';
  method: string;
  path: string;
  access: 'public' | 'operator' | 'key';
  keyTypes: string[] | null;
}

/** The route table, as docs/security.md is generated from it. */
function routeTable(): Route[] {
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'tools/docs/route-table.mjs')], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`route-table.mjs failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Route[];
}

describe('key types: every route takes only the key types it states (the route table)', () => {
  const table = routeTable();
  const flowId = 'IDFmatrixflow';
  const keys = () => {
    const base = { tenant_id: tenant.tenantId, sub: tenant.adminUserId };
    return {
      backend: tenant.apiKey,
      web: mintKey({ ...base, key_type: 'web', grant: 'digital-identity', flow_id: flowId }),
      sdk: mintKey({ ...base, key_type: 'sdk', grant: 'digital-identity', flow_id: flowId }),
      unbound: mintKey({ ...base, key_type: 'web', grant: 'signals' }),
    };
  };

  it('has a key-type decision for every keyed route, and web/sdk keys only on end-user process routes', () => {
    expect(table.filter((r) => r.access === 'key' && r.keyTypes === null)).toEqual([]);
    const temporary = table.filter((r) => r.keyTypes?.includes('web') || r.keyTypes?.includes('sdk'));
    expect(temporary.length).toBeGreaterThan(0);
    for (const r of temporary)
      expect(`${r.service} ${r.path}`).toMatch(/^(identity \/(v1|web)\/processes|\* \/v1\/auth\/whoami$)/);
    for (const r of table.filter((r) => r.access === 'key')) expect(r.keyTypes).toContain('backend');
  });

  it('calls every route with every key type and gets the decision of the table', async () => {
    const k = keys();
    const mismatches: string[] = [];
    let calls = 0;
    for (const route of table.filter((r) => r.access !== 'public')) {
      const targets = route.service === '*' ? [...services.keys()] : [route.service];
      for (const service of targets) {
        const proc = services.get(service);
        if (!proc) continue;
        const url = `${proc.url}${route.path.replace(/\{[^}]+\}/g, 'MATRIX0').replace('*', 'x')}`;
        const call = async (key: string) => {
          calls++;
          const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
          const res = await fetch(url, {
            method: route.method,
            headers: { 'service-api-key': key, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
            body: hasBody ? '{}' : undefined,
          });
          if (!(res.headers.get('content-type') ?? '').includes('json')) {
            // a stream (server-sent events) or a file: the status decides, its body is not read
            await res.body?.cancel();
            return { status: res.status };
          }
          const body = (await res.json().catch(() => ({}))) as { error_code?: string };
          return { status: res.status, code: body.error_code };
        };
        const where = `${route.method} ${route.path} (${service})`;
        const expectRefused = (who: string, got: { status: number; code?: string }, status: number, code: string) => {
          if (got.status !== status || got.code !== code)
            mismatches.push(`${where} with ${who}: ${got.status} ${got.code}, expected ${status} ${code}`);
        };
        const expectPassed = (who: string, got: { status: number; code?: string }) => {
          if (
            [401, 403].includes(got.status) &&
            ['key_type_not_allowed', 'invalid_api_key', 'forbidden'].includes(got.code ?? '')
          )
            mismatches.push(`${where} with ${who}: refused ${got.status} ${got.code}`);
        };
        if (route.access === 'operator') {
          for (const type of ['backend', 'web', 'sdk'] as const)
            expectRefused(`a ${type} key`, await call(k[type]), 403, 'forbidden');
          expectPassed('an operator token', await call(operator));
          continue;
        }
        for (const type of ['backend', 'web', 'sdk'] as const) {
          const got = await call(k[type]);
          if (route.keyTypes!.includes(type)) expectPassed(`a ${type} key`, got);
          else expectRefused(`a ${type} key`, got, 403, 'key_type_not_allowed');
        }
        expectRefused('a web key bound to no flow', await call(k.unbound), 403, 'key_type_not_allowed');
        expectRefused('an operator token', await call(operator), 401, 'invalid_api_key');
      }
    }
    expect(calls).toBeGreaterThan(table.length * 3);
    expect(mismatches).toEqual([]);
  }, 240_000);

  it('refuses the attacks of a web key from an access link, and changes nothing', async () => {
    const identity = new ApiClient(services.get('identity')!.url, tenant.apiKey);
    const account = new ApiClient(services.get('account')!.url, tenant.apiKey);
    const validations = new ApiClient(services.get('validations')!.url, tenant.apiKey);
    const flow = await identity.postJson('/v1/flows', {
      name: 'Matrix',
      redirect_url: 'https://example.test/done',
      steps: [{ type: 'form', fields: [{ name: 'first_name', label: 'First name' }] }],
    });
    expect(flow.status).toBe(201);
    const issued = await identity.post('/v1/api-keys', {
      key_type: 'web',
      grant: 'digital-identity',
      flow_id: flow.body.flow_id,
      country: 'CO',
      redirect_url: 'https://example.test/done',
    });
    expect(issued.status).toBe(201);
    const web = issued.body.api_key as string;
    const usersBefore = (await account.get('/v1/account/users')).body;
    const keysBefore = (await identity.get('/v1/api-keys')).body;

    const attacks = [
      identity.withKey(web).post('/v1/api-keys', { key_type: 'backend', name: 'stolen' }),
      account.withKey(web).post('/v1/account/users', { email: 'evil@example.test', role: 'full_access' }),
      account.withKey(web).get('/v1/bre/signing-secret'),
      validations.withKey(web).get('/v1/validations'),
      identity.withKey(web).get('/v1/processes'),
    ];
    for (const res of await Promise.all(attacks)) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 403, error_code: 'key_type_not_allowed' });
    }
    expect((await account.get('/v1/account/users')).body).toEqual(usersBefore);
    expect((await identity.get('/v1/api-keys')).body).toEqual(keysBefore);

    // What the key is for still works: it starts its one process and reads it.
    const started = await identity.withKey(web).post('/v1/processes');
    expect(started.status).toBe(201);
    expect((await identity.withKey(web).get(`/v1/processes/${started.body.process_id}`)).status).toBe(200);
  });
});

describe('fuzz: bad input never gets a 5xx (every route of every service, from its OpenAPI document)', () => {
  const operations: Operation[] = [];

  beforeAll(async () => {
    for (const [name, proc] of services) {
      const doc = (await (await fetch(`${proc.url}/docs/openapi.json`)).json()) as OpenApi;
      operations.push(...operationsOf(name, doc));
    }
  });

  it('reads an OpenAPI document with operations from every service', () => {
    for (const name of services.keys()) expect(operations.some((o) => o.service === name)).toBe(true);
  });

  it(
    'answers every generated bad request below 500, every 4xx in the error envelope, and stays healthy',
    async () => {
      expect(tenant).toBeDefined();
      const perOperationMs = Math.max(500, Math.floor(BUDGET_MS / Math.max(1, operations.length)));
      const failures: string[] = [];
      let sent = 0;
      for (const op of operations) {
        const base = services.get(op.service)!.url;
        const key = op.path.includes('/admin/') ? operator : tenant.apiKey;
        // fc.check, not fc.assert: an operation whose time slice ran out is not a failure.
        const outcome = await fc.check(
          fc.asyncProperty(requestFor(op), async (req) => {
            const res = await fetch(`${base}${req.path}`, {
              method: op.method,
              headers: { 'service-api-key': key, ...req.headers },
              body: req.body,
            }).catch((err: Error) => err);
            if (res instanceof Error) {
              // fetch refuses to send some header values; anything else (a reset connection) is a failure.
              if (/header/i.test(String(res.message))) return true;
              throw res;
            }
            sent++;
            if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
              // an accepted stream (server-sent events) stays open: its status is the answer
              await res.body?.cancel();
              return res.status < 500;
            }
            const text = await res.text();
            let body: { code?: unknown; message?: unknown; error?: unknown } | undefined;
            try {
              body = JSON.parse(text) as typeof body;
            } catch {
              body = undefined;
            }
            const where = `${op.method} ${req.path.slice(0, 200)} (${op.service}) → ${res.status}`;
            if (res.status >= 500) throw new Error(`${where}: ${text.slice(0, 300)}`);
            if (res.status >= 400) {
              const envelope = body && body.code === res.status && typeof body.message === 'string';
              const oauth = op.service === 'pass' && body && typeof body.error === 'string';
              if (!envelope && !oauth) throw new Error(`${where}: not the error envelope: ${text.slice(0, 300)}`);
            }
            return true;
          }),
          {
            numRuns: RUNS,
            seed: SEED,
            interruptAfterTimeLimit: perOperationMs,
            markInterruptAsFailure: false,
            endOnFailure: true,
          },
        );
        // A failure has a counterexample; a slice that ran out before its first case finished has none.
        if (outcome.failed && outcome.counterexample !== null)
          failures.push((fc.defaultReportMessage(outcome) ?? 'failed').split('\n').slice(0, 12).join('\n'));
      }
      for (const [name, proc] of services) {
        const health = await fetch(`${proc.url}/health`);
        if (health.status !== 200) failures.push(`${name} is not healthy after the run: ${health.status}`);
      }
      expect(sent).toBeGreaterThan(operations.length);
      expect(failures).toEqual([]);
    },
    BUDGET_MS * 2 + 60_000,
  );
});
