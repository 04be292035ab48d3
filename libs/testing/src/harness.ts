import { ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net, { AddressInfo } from 'node:net';
import path from 'node:path';

import { ServiceName, SERVICES } from '@kyc/contracts';
import {
  ApiKeySigner,
  createServiceApp,
  migrateSchema,
  ServiceDefinition,
  ServiceOptions,
  startServiceApp,
} from '@kyc/platform';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';

import { consumerGroupCaughtUp, startsAtTopicEnds } from './consumer-groups';

/** Where the shared test infrastructure is (set by libs/testing/harness/global-setup.mjs). */
export interface Harness {
  dir: string;
  databaseUrl: string;
  kafkaBrokers: string[];
  publicKey: string;
  privateKey: string;
  kafka: { pidFile: string; command: { file: string; args: string[] } };
  /** TEST_PGBOUNCER=1: PgBouncer in transaction mode; `url` with SCHEMA for the service's schema. */
  pgbouncer?: { port: number; url: string };
}

export const repoRoot = path.resolve(__dirname, '../../..');

/** This jest worker's PostgreSQL and Kafka (global-setup starts one pair per worker). */
export function harness(): Harness {
  const raw = process.env.KYC_TEST_HARNESS;
  if (!raw) throw new Error('KYC_TEST_HARNESS is not set: run integration suites through `npm run test:integration`');
  const stacks: Harness[] = JSON.parse(raw);
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  const stack = stacks[worker - 1];
  if (!stack) throw new Error(`no harness stack for jest worker ${worker} (${stacks.length} started)`);
  return stack;
}

export const signer = () => new ApiKeySigner(harness().privateKey);

let pool: Pool | undefined;
/** A pg pool on the test database, for asserting rows. */
export function db(): Pool {
  if (!pool) {
    pool = new Pool({ connectionString: harness().databaseUrl, max: 4 });
    // An idle connection ended by the server (the run's PostgreSQL stopping after the last suite, a test
    // restarting it) is dropped from the pool; without a listener the pool would throw it and end the run.
    pool.on('error', () => undefined);
  }
  return pool;
}

export async function closeDb(): Promise<void> {
  await pool?.end();
  pool = undefined;
}

/**
 * Prepares a stack directory for a stack command that runs on the harness's PostgreSQL: the keys that
 * seal data some services store at boot (pass's signing keys) are the run's, so the stack's services and
 * the suites' services can read each other's rows in the shared schemas.
 */
export function shareStackKeys(stackDir: string): void {
  const keys = path.join(stackDir, 'keys');
  mkdirSync(keys, { recursive: true });
  writeFileSync(path.join(keys, 'pass-secrets.key'), `${serviceEnv('pass').PASS_SECRETS_KEY}\n`, { mode: 0o600 });
}

/** An address where nothing listens: a request to it is refused at once. */
const UNREACHABLE_URL = 'http://127.0.0.1:1';

/** The environment a service gets in tests (overrides win). */
export function serviceEnv(service: ServiceName, overrides: Record<string, string> = {}): Record<string, string> {
  const h = harness();
  return {
    SERVICE_NAME: service,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: h.databaseUrl,
    DB_SCHEMA: SERVICES[service].schema,
    // Through PgBouncer (TEST_PGBOUNCER=1): the schema's alias, no session state; migrations on PostgreSQL itself.
    ...(h.pgbouncer
      ? {
          DATABASE_URL: h.pgbouncer.url.replace('SCHEMA', SERVICES[service].schema),
          DATABASE_DIRECT_URL: h.databaseUrl,
          DB_TRANSACTION_POOLER: 'true',
        }
      : {}),
    KAFKA_BROKERS: h.kafkaBrokers.join(','),
    API_KEY_PUBLIC_KEY: h.publicKey,
    DB_MIGRATE_ON_START: 'true',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    // A consumer's idle fetch returns after 100 ms instead of 500: closing a service (which waits for the
    // fetch under way of each of its consumers) takes a fraction of a second; records arrive as fast either way.
    KAFKA_CONSUMER_MAX_WAIT_MS: '100',
    // Test receivers listen on 127.0.0.1, as on the local stack; a suite passes '' to test the SSRF policy.
    OUTBOUND_HTTP_ALLOW: 'loopback',
    // Every suite's requests come from 127.0.0.1, one client address for the whole run: the limits per
    // client address and per e-mail are off unless a suite sets them (the suites that test them do).
    RATE_LIMIT_CLIENT_PER_SECOND: '0',
    OTP_ISSUE_PER_CLIENT_PER_HOUR: '0',
    OTP_ISSUE_PER_ADDRESS_PER_HOUR: '0',
    // The services identity calls default to their ports on localhost, where a developer's stack may
    // be running (with other keys: its validations refuses identity's calls). A suite reaches only
    // the services it starts: unless it passes their URLs, these lead to a closed port (port 1).
    ...(service === 'identity'
      ? {
          API_KEY_PRIVATE_KEY: h.privateKey,
          IDENTITY_VALIDATIONS_URL: UNREACHABLE_URL,
          IDENTITY_ENGAGEMENT_URL: UNREACHABLE_URL,
        }
      : {}),
    // The same key for every account instance of a run, so secrets sealed by one open in another.
    ...(service === 'account'
      ? { ACCOUNT_SECRETS_KEY: createHash('sha256').update(`account-secrets:${h.privateKey}`).digest('hex') }
      : {}),
    // Likewise for the checks service's credentials key (32 bytes, base64).
    ...(service === 'checks'
      ? { CHECKS_CREDENTIALS_KEY: createHash('sha256').update(`checks-credentials:${h.privateKey}`).digest('base64') }
      : {}),
    // Pass seals client secrets and its signing keys with this key (the same in every pass instance of a run).
    ...(service === 'pass'
      ? { PASS_SECRETS_KEY: createHash('sha256').update(`pass-secrets:${h.privateKey}`).digest('hex') }
      : {}),
    ...(service === 'engagement'
      ? {
          ENGAGEMENT_CREDENTIALS_KEY: createHash('sha256')
            .update(`engagement-credentials:${h.privateKey}`)
            .digest('base64'),
        }
      : {}),
    ...overrides,
  };
}

export interface RunningService {
  url: string;
  close(): Promise<void>;
}

/** Boots a service's real AppModule inside the test process, on a free port, migrated. */
export async function startInProcess(
  service: ServiceName,
  definition: (env: NodeJS.ProcessEnv, options: ServiceOptions) => ServiceDefinition,
  overrides: Record<string, string> = {},
  options: ServiceOptions = {},
): Promise<RunningService & { app: NestFastifyApplication }> {
  const def = definition(serviceEnv(service, overrides), options);
  await migrateSchema({
    url: def.config.DATABASE_DIRECT_URL ?? def.config.DATABASE_URL,
    schema: def.config.DB_SCHEMA,
    entities: def.entities,
    migrations: def.migrations,
  });
  if (def.consumesEvents)
    await startsAtTopicEnds(testKafka(), def.config.KAFKA_CONSUMER_GROUP ?? def.config.SERVICE_NAME);
  const app = await createServiceApp(def);
  await startServiceApp(app, def, 0);
  if (def.consumesEvents)
    await consumerGroupCaughtUp(testKafka(), def.config.KAFKA_CONSUMER_GROUP ?? def.config.SERVICE_NAME);
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

type DefinitionFactory = (env: NodeJS.ProcessEnv, options: ServiceOptions) => ServiceDefinition;

/**
 * A service's definition factory, loaded by name at run time (apps/<service>/src/app.module
 * exports `<service>Service`), as the stack starts a service by name: a test runs the other
 * services it needs without importing their code.
 */
export function serviceDefinition(service: ServiceName): DefinitionFactory {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by name at run time, not imported (see above)
  const loaded = require(path.join(repoRoot, 'apps', service, 'src/app.module')) as Record<string, unknown>;
  const factory = loaded[`${service}Service`];
  if (typeof factory !== 'function') throw new Error(`apps/${service}/src/app.module exports no ${service}Service`);
  return factory as DefinitionFactory;
}

/** startInProcess for a service of the repository by name (serviceDefinition). */
export function startService(
  service: ServiceName,
  overrides: Record<string, string> = {},
  options: ServiceOptions = {},
): Promise<RunningService & { app: NestFastifyApplication }> {
  return startInProcess(service, serviceDefinition(service), overrides, options);
}

export interface ServiceProcess extends RunningService {
  process: ChildProcess;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The Node flags of a service process: the stack's (libs/devstack/service-node-flags.json). */
const serviceNodeFlags = (): string[] =>
  JSON.parse(readFileSync(path.join(repoRoot, 'libs/devstack/service-node-flags.json'), 'utf8'));

/** Runs a service as its own OS process from dist/ (as the stack does, with its Node flags), waiting for /health. */
export async function startProcess(
  service: ServiceName,
  port: number,
  overrides: Record<string, string> = {},
): Promise<ServiceProcess> {
  await startsAtTopicEnds(testKafka(), overrides.KAFKA_CONSUMER_GROUP ?? service);
  const logFile = path.join(harness().dir, `${service}-${port}.log`);
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(
    process.execPath,
    [...serviceNodeFlags(), path.join(repoRoot, 'dist/apps', service, 'src/main.js')],
    {
      env: { ...process.env, ...serviceEnv(service, { PORT: String(port), ...overrides }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const url = `http://127.0.0.1:${port}`;
  const exited = once(child, 'exit');
  await eventually(
    async () => {
      if (child.exitCode !== null)
        throw new Error(
          `${service} exited with ${child.exitCode}; see ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-3000)}`,
        );
      const res = await fetch(`${url}/health`).catch(() => undefined);
      expectTrue(res?.status === 200, `${service} /health`);
    },
    { timeoutMs: 120_000, intervalMs: 200, bail: (e) => String(e).includes('exited with') },
  ).catch((err: unknown) => {
    // Not left running (it would consume the suite's events with the default consumer group).
    child.kill('SIGKILL');
    throw err;
  });
  // Healthy means its consumers have joined their group (a service that consumes nothing has no group).
  await consumerGroupCaughtUp(testKafka(), overrides.KAFKA_CONSUMER_GROUP ?? service);
  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
  };
  return { url, process: child, kill, close: () => kill('SIGTERM') };
}

function expectTrue(ok: boolean, what: string) {
  if (!ok) throw new Error(`${what} not yet`);
}

/** Retries an assertion until it passes or the time is up (then rethrows its last error). */
export async function eventually<T>(
  fn: () => Promise<T> | T,
  options: { timeoutMs?: number; intervalMs?: number; bail?: (e: unknown) => boolean } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (options.bail?.(err) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, options.intervalMs ?? 100));
    }
  }
}

/** A kafkajs client on the test broker (for producing raw messages, e.g. redeliveries). */
export const testKafka = () =>
  new Kafka({ clientId: 'test', brokers: harness().kafkaBrokers, logLevel: logLevel.NOTHING });

/** Stops the shared Kafka broker (SIGTERM, waits for exit). */
export async function stopKafka(): Promise<void> {
  const pid = Number(readFileSync(harness().kafka.pidFile, 'utf8'));
  process.kill(pid, 'SIGTERM');
  await eventually(
    () => {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
      throw new Error('broker still running');
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
}

/** Starts the shared Kafka broker again with the same data and ports, and waits until it serves. */
export async function startKafka(): Promise<void> {
  const h = harness();
  const child = spawn(h.kafka.command.file, h.kafka.command.args, { detached: true, stdio: 'ignore' });
  child.unref();
  writeFileSync(h.kafka.pidFile, String(child.pid));
  const admin = new Kafka({
    clientId: 'test-wait',
    brokers: h.kafkaBrokers,
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
  }).admin();
  await eventually(
    async () => {
      await admin.connect();
      const { brokers } = await admin.describeCluster();
      expectTrue(brokers.length > 0, 'kafka');
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
  await admin.disconnect();
}

/**
 * `count` distinct TCP ports nothing listens on right now. All are held open until every one is
 * bound: asking one at a time can give the same port twice (the kernel reuses a closed port).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = net.createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
    }
    return servers.map((s) => (s.address() as AddressInfo).port);
  } finally {
    await Promise.all(
      servers.map((s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))),
    );
  }
}

/** A TCP port nothing listens on right now. */
export const freePort = async () => (await freePorts(1))[0];
