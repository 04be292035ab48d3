// Jest globalSetup of the integration suites: a real PostgreSQL and a real Kafka broker per jest
// worker of the run, on free ports, in .stack/test-<pid>/worker-<n>/ (a running dev stack is not disturbed).
// Tests read where they are from KYC_TEST_HARNESS (see libs/testing/src/harness.ts).
import { rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ensureTopics, startKafka } from '../../devstack/src/kafka.mjs';
import { startPgBouncer } from '../../devstack/src/pgbouncer.mjs';
import { startPostgres } from '../../devstack/src/postgres.mjs';
import { freePorts, repoRoot } from '../../devstack/src/util.mjs';

const require = createRequire(import.meta.url);

/**
 * One PostgreSQL and one Kafka broker for each jest worker (`maxWorkers`, 2 for the integration
 * config): suites running side by side share no database, topic, consumer group or job table. A worker
 * finds its own by JEST_WORKER_ID (libs/testing/src/harness.ts).
 */
export default async function globalSetup(globalConfig) {
  const started = Date.now();
  const dir = path.join(repoRoot, '.stack', `test-${process.pid}`);
  await rm(dir, { recursive: true, force: true });
  const workers = Math.max(1, globalConfig?.maxWorkers ?? 1);
  const { generateSigningKeys } = require(path.join(repoRoot, 'dist/libs/platform/src/auth/api-key.tokens.js'));
  const keys = generateSigningKeys();
  // Every port asked for at once, so two stacks starting side by side cannot be handed the same one.
  const ports = await freePorts(3 * workers);
  const stacks = await Promise.all(
    Array.from({ length: workers }, (_, i) =>
      startWorkerStack(path.join(dir, `worker-${i + 1}`), ports.slice(3 * i, 3 * i + 3), keys),
    ),
  );
  process.env.KYC_TEST_HARNESS = JSON.stringify(stacks.map((s) => s.env));
  globalThis.__KYC_HARNESS__ = { dir, stacks: stacks.map((s) => s.handle) };
  for (const { env, handle } of stacks)
    console.log(
      `\n[harness] ${path.basename(env.dir)}: PostgreSQL :${handle.pgPort}${handle.pgbouncer ? ` (through PgBouncer :${handle.pgbouncer.port}, transaction mode)` : ''} and Kafka ${env.kafkaBrokers.join(',')}`,
    );
  console.log(`[harness] ${workers} worker stack(s) ready in ${Date.now() - started} ms`);
}

async function startWorkerStack(dir, [pgPort, kafkaPort, controllerPort], keys) {
  const kafkaDir = path.join(dir, 'kafka');
  const [postgres, kafka] = await Promise.all([
    startPostgres({ dir: path.join(dir, 'postgres'), port: pgPort }),
    // A loaded CI machine (other jobs, other engineers' suites) can take minutes to start a JVM.
    startKafka({
      dir: kafkaDir,
      cacheDir: path.join(repoRoot, '.stack', 'cache'),
      port: kafkaPort,
      controllerPort,
      readyTimeoutMs: 240_000,
    }),
  ]);
  const { TOPIC_SPECS } = require(path.join(repoRoot, 'dist/libs/contracts/src/topics.js'));
  await ensureTopics(kafka.brokers, TOPIC_SPECS);
  // TEST_PGBOUNCER=1: the services reach PostgreSQL through PgBouncer in transaction mode (docs/deployment.md, "PgBouncer").
  let pgbouncer;
  if (process.env.TEST_PGBOUNCER === '1') {
    const { SERVICES } = require(path.join(repoRoot, 'dist/libs/contracts/src/services.js'));
    const [port] = await freePorts(1);
    pgbouncer = await startPgBouncer({
      dir: path.join(dir, 'pgbouncer'),
      port,
      postgresUrl: postgres.url,
      schemas: Object.values(SERVICES).map((s) => s.schema),
    });
  }
  const pidFile = path.join(dir, 'kafka.pid');
  await writeFile(pidFile, String(kafka.pid));
  return {
    env: {
      dir,
      databaseUrl: postgres.url,
      kafkaBrokers: kafka.brokers,
      publicKey: keys.publicKey,
      privateKey: keys.privateKey,
      kafka: { pidFile, command: kafka.command },
      ...(pgbouncer ? { pgbouncer: { port: pgbouncer.port, url: pgbouncer.urlOf('SCHEMA') } } : {}),
    },
    handle: { postgres, pgPort, kafka, pidFile, pgbouncer },
  };
}
