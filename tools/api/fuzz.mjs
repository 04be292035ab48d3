// Property-based tests of every service (schemathesis, pinned in tools/api/requirements.txt) from the
// committed openapi/<service>.json, against a running stack: every check schemathesis has (server
// errors, status codes, content types, response schemas and headers, positive and negative data,
// unsupported methods, ...), a fixed seed and a bounded number of examples per operation, the test
// tenant's full-access key, and ids of resources created before the run so operations on one
// resource reach their handlers rather than a 404. A finding fails the run unless
// tools/api/allow-list.yaml lists it with its reason.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';

import { repoRoot } from '../stack/util.mjs';
import { venvBin } from './toolchain.mjs';

export const FUZZ_SEED = 20261128;
/** `ci`: the share of `npm test`; `long`: `npm run fuzz:api`. */
export const PROFILES = {
  ci: { maxExamples: 4, concurrency: 3, workers: 1 },
  long: { maxExamples: 60, concurrency: 2, workers: 2 },
};

async function call(base, apiKey, method, url, body) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { 'Service-API-Key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

/**
 * Resources of the test tenant the fuzzer's path parameters point at, per service: without them an
 * operation on one check, contact or flow only ever meets a 404. A seed that cannot be created is
 * reported and left out (the fuzzer then generates the id).
 */
export async function seedIds(info, log) {
  const s = info.services;
  const k = info.api_key;
  const seeds = { checks: {}, identity: {}, customers: {}, validations: {}, engagement: {}, account: {}, pass: {} };
  const attempt = async (service, param, what, fn) => {
    try {
      const value = await fn();
      if (value) seeds[service][param] = value;
      else log(`fuzz: no seed for ${service} ${param} (${what})`);
    } catch (err) {
      log(`fuzz: no seed for ${service} ${param} (${what}): ${err.message}`);
    }
  };
  // A key of its own for identity's key operations to revoke (never the key the fuzzer sends).
  await attempt('identity', 'key_id', 'POST /v1/api-keys', async () => (await mintKey(info, 'fuzz-sacrificial')).keyId);
  await attempt('checks', 'check_id', 'POST /v1/checks', async () => {
    const r = await call(s.checks, k, 'POST', '/v1/checks', {
      country: 'CO',
      type: 'person',
      user_authorized: true,
      national_id: '79111222',
    });
    return r.body?.check?.check_id;
  });
  await attempt('checks', 'continuous_check_id', 'POST /v1/continuous-checks', async () => {
    const r = await call(s.checks, k, 'POST', '/v1/continuous-checks', {
      check_id: seeds.checks.check_id,
      frequency: 'monthly',
      end_date: `${new Date().getUTCFullYear() + 1}-12-31`,
    });
    return r.body?.continuous_check?.continuous_check_id ?? r.body?.continuous_check_id;
  });
  seeds.identity.flow_id = info.identity_flow_id;
  seeds.identity.flow = info.identity_flow_id;
  await attempt('identity', 'process_id', 'POST /v1/processes', async () => {
    // A process is started by a person's page with a web key of the flow.
    const web = await call(s.identity, k, 'POST', '/v1/api-keys', {
      key_type: 'web',
      grant: 'digital-identity',
      flow_id: info.identity_flow_id,
      country: 'CO',
      redirect_url: 'https://example.com/done',
    });
    if (!web.body?.api_key) throw new Error(`web key: ${web.status} ${JSON.stringify(web.body)}`);
    const r = await call(s.identity, web.body.api_key, 'POST', '/v1/processes');
    if (!r.body?.process_id) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
    return r.body.process_id;
  });
  await attempt('customers', 'contact_id', 'POST /v1/contacts', async () => {
    const r = await call(s.customers, k, 'POST', '/v1/contacts', { phone_number: '+573001110000', name: 'Ana Fuzz' });
    if (r.body?.contact?.customer_id) seeds.customers.customer_id = r.body.contact.customer_id;
    return r.body?.contact?.contact_id;
  });
  await attempt('customers', 'segment_id', 'POST /v1/customers/segments', async () => {
    const r = await call(s.customers, k, 'POST', '/v1/customers/segments', {
      name: 'fuzz',
      rule: { '>=': [{ var: 'checks_count' }, 1] },
    });
    return r.body?.segment?.segment_id;
  });
  await attempt('validations', 'validation_id', 'POST /v1/validations', async () => {
    await call(s.validations, k, 'POST', '/v1/accounts', { account_id: 'fuzz-account', first_name: 'Ana' });
    await call(s.validations, k, 'POST', '/v1/enrollments', {
      type: 'email-verification',
      user_authorized: true,
      account_id: 'fuzz-account',
      email: 'fuzz-account@mail.test',
    });
    const r = await call(s.validations, k, 'POST', '/v1/validations', {
      type: 'email-verification',
      user_authorized: true,
      account_id: 'fuzz-account',
    });
    if (r.body?.account_id) seeds.validations.account_id = r.body.account_id;
    return r.body?.validation_id;
  });
  await attempt('engagement', 'waba_line', 'GET /v1/msg/lines', async () => {
    const r = await call(s.engagement, k, 'GET', '/v1/msg/lines');
    return (Array.isArray(r.body) ? r.body : r.body?.lines)?.[0]?.waba_line;
  });
  for (const [service, ids] of Object.entries(seeds))
    if (Object.keys(ids).length) log(`fuzz: ${service} seeded ${Object.keys(ids).join(', ')}`);
  return seeds;
}

/** A backend key of the test tenant, minted with its full-access key (POST /v1/api-keys). */
export async function mintKey(info, name) {
  const r = await call(info.services.identity, info.api_key, 'POST', '/v1/api-keys', { key_type: 'backend', name });
  if (r.status !== 201 || !r.body?.api_key) throw new Error(`minting a key: ${r.status} ${JSON.stringify(r.body)}`);
  return { apiKey: r.body.api_key, keyId: r.body.key_id };
}

const tomlString = (v) => JSON.stringify(String(v));

/**
 * The run's schemathesis.toml. Seeded ids are dictionaries bound to their path parameter, not fixed
 * values: a generated request draws the seed (when it fits the parameter's schema), but a request the
 * stateful phase makes by following a link keeps the link's value, so a POST is followed by a read of
 * what it created (a fixed `[parameters]` value would override the link, and an earlier DELETE of the
 * seed then looks like a created resource that is gone). `allow-x00 = false`: the platform refuses a
 * NUL character anywhere in a request, in a value or in a property name (docs/api.md, Requests; every
 * operation's 400), a rule OpenAPI 3.0 cannot put on the names of additional properties
 * (`propertyNames` is JSON Schema 2020-12, OpenAPI 3.1); its refusals are tested by
 * libs/testing/test/integration/request-hardening.integration-spec.ts.
 */
export function fuzzConfig(seeds) {
  const lines = [
    '[generation]',
    'allow-x00 = false',
    '',
    // schemathesis's refusals, and 413, 414 and 431: a body, path parameter or URL over the documented bound
    '[checks.negative_data_rejection]',
    `expected-statuses = ${JSON.stringify(['400', '401', '403', '404', '405', '406', '409', '413', '414', '415', '422', '428', '429', '431', '5xx'])}`,
    '',
  ];
  const names = Object.keys(seeds);
  if (names.length) {
    lines.push('[parameters]');
    for (const name of names)
      lines.push(`${tomlString(`path.${name}`)} = { dictionary = ${tomlString(`seed-${name}`)} }`);
    lines.push('');
    for (const [name, value] of Object.entries(seeds))
      lines.push(`[dictionaries.${tomlString(`seed-${name}`)}]`, `values = [${tomlString(value)}]`, '');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The refusals behind each operation's ST202 findings, read from schemathesis's log (run with
 * `--output-truncate false`; its JSON report names the operations but not the answers): for every
 * test case that failed ST202, the 400 envelope's `fields` (or its `error_code` and `message` when it
 * has none; an OAuth endpoint's `error` and `error_description`). An answer that is not an envelope
 * is kept as `{ unreadable }`, which no entry allows.
 */
export function refusalsOf(logText) {
  const byOperation = new Map();
  const blocks = logText.split(/\n_{3,} (.+?) _{3,}\n/);
  for (let i = 1; i < blocks.length; i += 2) {
    const operation = blocks[i];
    for (const testCase of blocks[i + 1].split(/(?:^|\n)\d+\. Test Case ID: /).slice(1)) {
      if (!/^- ST202 /m.test(testCase)) continue;
      const body = /^\[\d{3}\][^\n]*:\n\n\s*`(.*)`\s*$/m.exec(testCase)?.[1];
      let refusal;
      try {
        const envelope = JSON.parse(body ?? '');
        refusal = envelope.fields?.length
          ? envelope.fields.map((f) => ({ field: String(f.field), message: String(f.message) }))
          : typeof envelope.error === 'string' // an OAuth endpoint's error (RFC 6749 section 5.2)
            ? [{ field: '', error_code: envelope.error, message: String(envelope.error_description ?? '') }]
            : [{ field: '', error_code: String(envelope.error_code ?? ''), message: String(envelope.message ?? '') }];
      } catch {
        refusal = [{ unreadable: (body ?? 'no answer in the log').slice(0, 200) }];
      }
      if (!byOperation.has(operation)) byOperation.set(operation, []);
      byOperation.get(operation).push(refusal);
    }
  }
  return byOperation;
}

/**
 * The findings of one service's run: [{ operation, code, title, refusals? }] (schemathesis's JSON
 * report; an ST202 finding carries the refusals its log shows, see refusalsOf).
 */
export function findingsOf(report, logText = '') {
  const refusals = refusalsOf(logText);
  const findings = [];
  for (const failure of report.failures ?? [])
    for (const operation of failure.operations ?? [])
      findings.push({
        operation,
        code: failure.code,
        title: failure.title,
        ...(failure.code === 'ST202' ? { refusals: refusals.get(operation) ?? [] } : {}),
      });
  for (const error of report.errors ?? [])
    findings.push({
      operation: error.operation ?? error.label ?? '*',
      code: 'error',
      title: (error.message ?? error.title ?? JSON.stringify(error)).slice(0, 300),
    });
  return findings;
}

/**
 * The allow-list: `fuzz.<service>` (and `fuzz.all`, for every service) lists reviewed findings.
 * An ST202 entry is a reason, not an operation: `field` (exact, or a pattern with `*` for any
 * characters, e.g. `products.*.price`), `message` (a regular expression the refusal's message
 * matches) and optionally `operation`; an envelope without fields is named by `error_code`.
 * Any other entry names `operation` (or "*") and `code`. Every entry says `why`.
 */
export function loadAllowList(file = path.join(repoRoot, 'tools', 'api', 'allow-list.yaml')) {
  const doc = YAML.parse(readFileSync(file, 'utf8')) ?? {};
  const fuzz = doc.fuzz ?? {};
  for (const [service, entries] of Object.entries(fuzz))
    for (const e of entries ?? []) {
      if (!e.code || !e.why) throw new Error(`tools/api/allow-list.yaml: fuzz.${service} entry without code and why`);
      // a reason names the refused field and the rule's message, or a fieldless envelope's error_code
      if (e.code === 'ST202' && !((e.field && e.message) || e.error_code))
        throw new Error(
          `tools/api/allow-list.yaml: fuzz.${service} ST202 entry without field and message (or error_code)`,
        );
      if (e.code !== 'ST202' && !e.operation)
        throw new Error(`tools/api/allow-list.yaml: fuzz.${service} ${e.code} entry without operation`);
    }
  for (const e of doc.clients ?? [])
    if (!e.language || !e.step || !e.why)
      throw new Error('tools/api/allow-list.yaml: clients entry without language, step and why');
  for (const e of doc.documents ?? [])
    if (!e.file || !e.why) throw new Error('tools/api/allow-list.yaml: documents entry without file and why');
  return { fuzz, clients: doc.clients ?? [], documents: doc.documents ?? [] };
}

const fieldMatches = (pattern, field) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(field);

/** The entry that accepts one refused field (or fieldless envelope) of an operation. */
const reasonFor = (entries, operation, error) =>
  entries.find(
    (e) =>
      e.code === 'ST202' &&
      (!e.operation || e.operation === operation) &&
      !error.unreadable &&
      (e.error_code ? e.error_code === error.error_code : fieldMatches(e.field ?? '', error.field)) &&
      (!e.message || new RegExp(e.message).test(error.message)),
  );

/**
 * Whether the allow-list accepts a finding: an ST202 finding when its log shows every refusal and
 * every refused field of each has a reason listed; any other by its operation and code.
 */
export const allowed = (entries, finding) => {
  entries = entries ?? [];
  if (finding.code === 'ST202')
    return (
      finding.refusals.length > 0 &&
      finding.refusals.every((refusal) => refusal.every((error) => reasonFor(entries, finding.operation, error)))
    );
  return entries.some(
    (e) =>
      e.code !== 'ST202' &&
      (e.operation === '*' || e.operation === finding.operation) &&
      (e.code === '*' || e.code === finding.code),
  );
};

function runSchemathesis(args, logFile) {
  return new Promise((resolve) => {
    const out = createWriteStream(logFile);
    const child = spawn(venvBin('schemathesis'), args, {
      cwd: repoRoot,
      env: {
        ...process.env,
        SCHEMATHESIS_TELEMETRY: 'false',
        NO_COLOR: '1',
        SCHEMATHESIS_HOOKS: path.join(repoRoot, 'tools', 'api', 'fuzz_hooks.py'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out);
    child.stderr.pipe(out);
    child.on('close', (code) => out.end(() => resolve(code)));
  });
}

/**
 * Fuzzes every service of the stack; resolves with one result per service:
 * { service, ok, seconds, findings, unexpected, testCases, log }.
 */
export async function fuzzServices({ info, profile = 'ci', log, reportDir, only }) {
  const settings = PROFILES[profile];
  await mkdir(reportDir, { recursive: true });
  const allowList = loadAllowList();
  const seeds = await seedIds(info, log);
  // A service without a committed document (the console, a web app) has no API to fuzz.
  const services = Object.keys(info.services).filter(
    (s) => (!only || only.includes(s)) && existsSync(path.join(repoRoot, 'openapi', `${s}.json`)),
  );
  // Each service is fuzzed with a key of its own: identity's fuzzer may revoke the key it finds, account's
  // may change the roles; neither must turn another service's run into a run of 401s. Those two run last.
  // Operations that answer an endless stream (server-sent events: every 2xx is text/event-stream) are
  // left out: a generated request that is accepted holds the connection open until the stream's lifetime
  // ends, so each example would cost the request timeout. Their refusals are covered by
  // libs/testing/test/integration/every-route.integration-spec.ts and their own suites.
  const streamOperations = (service) => {
    const doc = JSON.parse(readFileSync(path.join(repoRoot, 'openapi', `${service}.json`), 'utf8'));
    const ids = [];
    for (const item of Object.values(doc.paths ?? {}))
      for (const op of Object.values(item)) {
        const ok = Object.entries(op?.responses ?? {}).filter(([status]) => status.startsWith('2'));
        const types = ok.flatMap(([, r]) => Object.keys(r.content ?? {}));
        if (op?.operationId && types.length && types.every((t) => t === 'text/event-stream')) ids.push(op.operationId);
      }
    return ids;
  };
  const keys = {};
  for (const service of services) keys[service] = (await mintKey(info, `fuzz-${service}`)).apiKey;
  const results = [];
  const last = ['identity', 'account'];
  const waves = [services.filter((s) => !last.includes(s)), services.filter((s) => last.includes(s))];
  let queue = [];
  const worker = async () => {
    while (queue.length) {
      const service = queue.shift();
      const started = Date.now();
      const config = path.join(reportDir, `${service}.toml`);
      await writeFile(config, fuzzConfig(seeds[service] ?? {}));
      const reportFile = path.join(reportDir, `${service}.json`);
      const logFile = path.join(reportDir, `${service}.log`);
      const code = await runSchemathesis(
        [
          '--no-color',
          '--config-file',
          config,
          'run',
          path.join('openapi', `${service}.json`),
          '--url',
          info.services[service],
          '-H',
          `Service-API-Key: ${keys[service]}`,
          '--checks',
          'all',
          '--phases',
          'examples,coverage,fuzzing,stateful',
          '--seed',
          String(FUZZ_SEED),
          '--max-examples',
          String(settings.maxExamples),
          '--workers',
          String(settings.workers),
          '--request-timeout',
          '30',
          '--output-truncate',
          'false',
          ...streamOperations(service).flatMap((id) => ['--exclude-operation-id', id]),
          '--report',
          'json',
          '--report-json-path',
          reportFile,
        ],
        logFile,
      );
      let report;
      try {
        report = JSON.parse(readFileSync(reportFile, 'utf8'));
      } catch {
        report = {
          errors: [{ operation: '*', message: `schemathesis exited ${code} without a report; see ${logFile}` }],
        };
      }
      const findings = findingsOf(report, readFileSync(logFile, 'utf8'));
      const entries = [...(allowList.fuzz.all ?? []), ...(allowList.fuzz[service] ?? [])];
      const unexpected = findings.filter((f) => !allowed(entries, f));
      const seconds = (Date.now() - started) / 1000;
      const generated = report.test_cases?.generated ?? 0;
      log(
        `fuzz: ${service}: ${generated} test cases, ${findings.length} findings (${unexpected.length} not in the allow-list) in ${seconds.toFixed(0)} s`,
      );
      results.push({
        service,
        ok: unexpected.length === 0,
        seconds,
        findings,
        unexpected,
        testCases: generated,
        log: path.relative(repoRoot, logFile),
      });
    }
  };
  for (const wave of waves) {
    queue = [...wave];
    await Promise.all(Array.from({ length: Math.min(settings.concurrency, wave.length) }, worker));
  }
  return results;
}
