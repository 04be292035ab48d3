// Jest globalSetup of the integration suites: one real PostgreSQL and one real Kafka broker per
// test run, on free ports, in .stack/test-<pid>/ (so a running dev stack is not disturbed).
// Tests read where they are from KYC_TEST_HARNESS (see libs/testing/src/harness.ts).
import { rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ensureTopics, startKafka } from '../../../tools/stack/kafka.mjs';
import { startPostgres } from '../../../tools/stack/postgres.mjs';
import { freePorts, repoRoot } from '../../../tools/stack/util.mjs';

const require = createRequire(import.meta.url);

export default async function globalSetup() {
  const started = Date.now();
  const dir = path.join(repoRoot, '.stack', `test-${process.pid}`);
  await rm(dir, { recursive: true, force: true });
  const [pgPort, kafkaPort, controllerPort] = await freePorts(3);
  const kafkaDir = path.join(dir, 'kafka');
  const [postgres, kafka] = await Promise.all([
    startPostgres({ dir: path.join(dir, 'postgres'), port: pgPort }),
    startKafka({ dir: kafkaDir, cacheDir: path.join(repoRoot, '.stack', 'cache'), port: kafkaPort, controllerPort }),
  ]);
  const { TOPIC_SPECS } = require(path.join(repoRoot, 'dist/libs/contracts/src/topics.js'));
  await ensureTopics(kafka.brokers, TOPIC_SPECS);
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
  });
  globalThis.__KYC_HARNESS__ = { postgres, kafka, dir, pidFile };
  console.log(`\n[harness] PostgreSQL :${pgPort} and Kafka :${kafkaPort} ready in ${Date.now() - started} ms`);
}
