// Shared setup of the engagement bench scenarios (bench/engagement.mjs, bench/engagement-agents.mjs):
// the SANDBOX messaging provider, the engagement service started by the scenario itself on the
// stack's database and broker (so that a scenario can kill and restart it), and the demo tenant
// connected to a WABA of its own at the sandbox provider.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

import { startService } from '../tools/stack/services.mjs';
import { freePort, repoRoot, StackError } from '../tools/stack/util.mjs';

const require = createRequire(import.meta.url);

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A JSON request: { status, body } (body parsed when it is JSON, else the text). */
export async function call(url, { method = 'GET', headers = {}, body } = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* text */
  }
  return { status: res.status, body: parsed };
}

/** call, refusing any status from 300 up. */
export async function json(url, options) {
  const res = await call(url, options);
  if (res.status >= 300)
    throw new StackError(
      `${options?.method ?? 'GET'} ${url} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
    );
  return res.body;
}

/**
 * Starts the sandbox provider and the engagement service (variables `env` added to the common ones),
 * with the provider's webhooks posted to the service; waits until the service accepts the demo key.
 * Returns { sandbox, engagement, base, headers, restart(signal) } — restart kills the service with
 * `signal` and starts it again on the same port.
 */
export async function startEngagementBench(ctx, env = {}) {
  const { startSandboxMessaging } = require(
    path.join(repoRoot, 'dist/libs/devstack/src/sandbox-messaging/sandbox-messaging.server.js'),
  );
  const sandbox = await startSandboxMessaging({ reviewDelayMs: 200, statusDelayMs: 200, statusBatchMs: 100 });
  const port = await freePort();
  const serviceEnv = {
    DATABASE_URL: ctx.info.postgres_url,
    KAFKA_BROKERS: ctx.info.kafka_brokers.join(','),
    API_KEY_PUBLIC_KEY: ctx.stack.keys.publicKey,
    DB_SCHEMA: 'engagement',
    DB_MIGRATE_ON_START: 'true',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ENGAGEMENT_CREDENTIALS_KEY: createHash('sha256').update(randomBytes(32)).digest('base64'),
    ENGAGEMENT_GRAPH_BASE_URL: sandbox.graphUrl,
    // The SSRF policy of the provider client: the sandbox provider listens on loopback.
    OUTBOUND_HTTP_ALLOW: 'loopback',
    // As the runner's stacks: the rate limiter runs but never refuses the bench's one key (no 429s).
    RATE_LIMIT_TENANT_PER_SECOND: '1000000',
    RATE_LIMIT_KEY_PER_SECOND: '1000000',
    RATE_LIMIT_CLIENT_PER_SECOND: '1000000',
    // BENCH_ENGAGEMENT_NODE_OPTIONS: node flags of the engagement process only (e.g. '--cpu-prof --cpu-prof-dir=.stack/prof').
    ...(process.env.BENCH_ENGAGEMENT_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_ENGAGEMENT_NODE_OPTIONS } : {}),
    ...env,
  };
  const logsDir = path.join(repoRoot, '.stack', 'bench', 'logs');
  const bench = {
    sandbox,
    engagement: await startService({ name: 'engagement', port, env: serviceEnv, logsDir }),
    headers: { 'Service-API-Key': ctx.info.api_key },
    async restart(signal) {
      await bench.engagement.stop(signal);
      bench.engagement = await startService({ name: 'engagement', port, env: serviceEnv, logsDir });
    },
    async stop() {
      await bench.engagement.stop().catch(() => {});
      await sandbox.stop();
    },
  };
  bench.base = bench.engagement.url;
  sandbox.setWebhookUrl(`${bench.base}/v1/msg/whatsapp/statuses`);
  for (let i = 0; ; i++) {
    if ((await call(`${bench.base}/v1/auth/whoami`, { headers: bench.headers })).status === 200) break;
    if (i > 150) {
      await bench.stop();
      throw new StackError('the demo key is not accepted by the engagement service');
    }
    await sleep(100);
  }
  return bench;
}

/** CPU seconds (user + system) a process used so far, from /proc (Linux); undefined elsewhere. */
export async function cpuSeconds(pid) {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** Gives the demo tenant a WABA of its own at the sandbox provider: credentials, subscription; its line. */
export async function connectDemoTenant({ sandbox, base, headers }) {
  const waba = sandbox.createWaba();
  await json(`${base}/v1/msg/provider-credentials`, {
    method: 'PUT',
    headers,
    body: {
      access_token: sandbox.accessToken,
      waba_id: waba.waba_id,
      app_secret: sandbox.appSecret,
      verify_token: 'bench',
    },
  });
  const line = (await json(`${base}/v1/msg/waba-subscription`, { method: 'POST', headers })).lines[0];
  return { waba, line };
}
