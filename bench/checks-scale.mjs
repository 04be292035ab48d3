// Scenario: checks-scale. The same load (POST /v1/checks) through a round-robin proxy over 1, 2
// and 3 replicas of checks on this machine's one PostgreSQL and Kafka: throughput, p99, and the
// duplicate effects (a check finished twice: two checks.check.finished events for one check) once
// the engine has finished every check. On a machine with few cores the replicas share the same
// CPUs, so the figures show what coordinating replicas costs (job claims, the relay's row locks,
// consumer-group rebalances), not a speed-up: docs/benchmarks.md.
import { once } from 'node:events';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';

import { checksCredentialsKey, checksUploadSigningKey, signingKeys } from '../tools/stack/keys.mjs';
import { startService } from '../tools/stack/services.mjs';
import { freePorts, repoRoot } from '../tools/stack/util.mjs';
import { benchDir, log, num, round, settings, stackDir } from './kit.mjs';

const require = createRequire(import.meta.url);

/** The checks service's settings in this scenario (the stack's replica and the extra ones alike). */
export const SCALE_ENV = {
  // Sandbox databases answer at once: the load is the API, the engine's jobs and the relay.
  CHECKS_SANDBOX_LATENCY_SCALE: '0',
  SERVICE_REPLICAS: '3',
};

export async function checksScale(ctx) {
  const { info } = ctx;
  const { SERVICES } = require(path.join(repoRoot, 'dist/libs/contracts/src/services.js'));
  const schema = SERVICES.checks.schema;
  const db = new pg.Pool({ connectionString: info.postgres_url, max: 1, idleTimeoutMillis: 5_000 });
  db.on('error', (err) => log(`bench database connection: ${err.message}`));
  const keysDir = path.join(stackDir, 'keys');
  const replicaEnv = {
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: info.postgres_url,
    DB_SCHEMA: schema,
    KAFKA_BROKERS: info.kafka_brokers.join(','),
    API_KEY_PUBLIC_KEY: (await signingKeys(keysDir)).publicKey,
    CHECKS_CREDENTIALS_KEY: await checksCredentialsKey(keysDir),
    CHECKS_UPLOAD_SIGNING_KEY: await checksUploadSigningKey(keysDir),
    OUTBOUND_HTTP_ALLOW: 'loopback',
    RATE_LIMIT_TENANT_PER_SECOND: '1000000',
    RATE_LIMIT_KEY_PER_SECOND: '1000000',
    ...SCALE_ENV,
  };
  const replicas = [{ url: info.services.checks, pid: ctx.stack.processes.find((p) => p.name === 'checks')?.pid }];
  const extra = [];
  const proxy = await ctx.startChild(path.join(benchDir, 'round-robin-proxy.mjs'), { name: 'round-robin proxy' });
  const proxyUrl = `http://127.0.0.1:${proxy.ready.port}`;
  const setTargets = async (urls) => {
    proxy.process.send({ targets: urls });
    await once(proxy.process, 'message');
  };
  const run = Date.now().toString(36);
  let seq = 0;
  const formBody = () =>
    `country=CO&type=person&user_authorized=true&first_name=Ana&last_name=Perez&national_id=${run}${(seq++).toString(36)}`;
  const unfinishedSql = `SELECT count(*)::int AS n FROM "${schema}".checks WHERE status IN ('not_started', 'in_progress', 'delayed')`;
  const duplicatesSql = `SELECT count(*)::int AS n FROM (SELECT message_key FROM "${schema}".outbox
      WHERE type = 'checks.check.finished' GROUP BY message_key HAVING count(*) > 1) d`;
  const drainMs = num('BENCH_DRAIN_TIMEOUT', 120) * 1000;
  const rows = [];
  try {
    for (const n of [1, 2, 3]) {
      while (replicas.length < n) {
        const [port] = await freePorts(1);
        const svc = await startService({
          name: 'checks',
          port,
          env: replicaEnv,
          logsDir: path.join(stackDir, 'logs', `checks-replica-${replicas.length + 1}`),
        });
        extra.push(svc);
        replicas.push({ url: svc.url, pid: svc.pid });
        log(`checks replica ${replicas.length} at ${svc.url} (pid ${svc.pid})`);
      }
      await setTargets(replicas.map((r) => r.url));
      const summary = await ctx.measure(`POST /v1/checks, ${n} replica${n > 1 ? 's' : ''}`, {
        url: proxyUrl,
        requests: [
          {
            method: 'POST',
            path: '/v1/checks',
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'Service-API-Key': info.api_key },
            setupRequest: (req) => ({ ...req, body: formBody() }),
          },
        ],
      });
      // Every created check finished (by whichever replica claimed its jobs), then the duplicates.
      const started = Date.now();
      let unfinished = (await db.query(unfinishedSql)).rows[0].n;
      while (unfinished && Date.now() - started < drainMs) {
        await new Promise((r) => setTimeout(r, 250));
        unfinished = (await db.query(unfinishedSql)).rows[0].n;
      }
      const duplicates = (await db.query(duplicatesSql)).rows[0].n;
      rows.push({
        replicas: n,
        requests_per_sec: summary.requests_per_sec_avg,
        p50_ms: summary.latency_ms.p50,
        p99_ms: summary.latency_ms.p99,
        non_2xx: summary.non_2xx,
        drain_ms: Date.now() - started,
        unfinished_after_drain: unfinished,
        duplicate_finished_events: duplicates,
      });
      log(`${n} replica(s): ${JSON.stringify(rows.at(-1))}`);
    }
  } finally {
    for (const svc of extra) await svc.stop();
    await proxy.stop();
    await db.end().catch(() => undefined);
  }
  for (const r of rows)
    log(
      `${r.replicas} replica(s): ${r.requests_per_sec} req/s, p99 ${r.p99_ms} ms, ${r.duplicate_finished_events} duplicate effects`,
    );
  return {
    result: {
      cores: os.cpus().length,
      connections: settings.connections,
      duration_s: settings.durationSec,
      note: 'replicas share the same cores, PostgreSQL and Kafka: the figures show the cost of coordination, not a speed-up',
      rows,
      duplicate_effects: rows.reduce((s, r) => s + r.duplicate_finished_events, 0),
      throughput_ratio_3_to_1: round(rows[2].requests_per_sec / rows[0].requests_per_sec, 2),
    },
  };
}
