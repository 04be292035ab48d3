// Jest globalSetup of the integration suites: one real PostgreSQL and one real Kafka broker per
// test run, on free ports, in .stack/test-<pid>/ (so a running dev stack is not disturbed).
// Tests read where they are from KYC_TEST_HARNESS (see libs/testing/src/harness.ts).
import { rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ensureTopics, startKafka } from '../../devstack/src/kafka.mjs';
import { startPgBouncer } from '../../devstack/src/pgbouncer.mjs';
import { startPostgres } from '../../devstack/src/postgres.mjs';
import { freePorts, repoRoot } from '../../devstack/src/util.mjs';

const require = createRequire(import.meta.url);

export default async function globalSetup() {
  const started = Date.now();
  const dir = path.join(repoRoot, '.stack', `test-${process.pid}`);
  await rm(dir, { recursive: true, force: true });
  const [pgPort, kafkaPort, controllerPort] = await freePorts(3);
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
  const { generateSigningKeys } = require(path.join(repoRoot, 'dist/libs/platform/src/auth/api-key.tokens.js'));
  const keys = generateSigningKeys();
  const pidFile = path.join(dir, 'kafka.pid');
  await writeFile(pidFile, String(kafka.pid));
  process.env.KYC_TEST_HARNESS = JSON.stringify({
    dir,
    databaseUrl: postgres.url,
    kafkaBrokers: kafka.brokers,
    publicKey: keys.publicKey,
    privateKey: keys.privateKey,
    kafka: { pidFile, command: kafka.command },
    ...(pgbouncer ? { pgbouncer: { port: pgbouncer.port, url: pgbouncer.urlOf('SCHEMA') } } : {}),
  });
  globalThis.__KYC_HARNESS__ = { postgres, kafka, dir, pidFile, pgbouncer };
  console.log(
    `\n[harness] PostgreSQL :${pgPort}${pgbouncer ? ` (through PgBouncer :${pgbouncer.port}, transaction mode)` : ''} and Kafka :${kafkaPort} ready in ${Date.now() - started} ms`,
  );
}
