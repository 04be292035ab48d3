// The whole platform on one machine: PostgreSQL, Kafka, the seven services and a demo tenant.
// Used by `npm start` (tools/stack/cli.mjs), by the stack suites and by the benchmark; PostgreSQL,
// Kafka and the sandbox messaging provider are libs/devstack's launchers.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { ensureTopics, startKafka } from '../../libs/devstack/src/kafka.mjs';
import { assertPostgresUserCanReach, startPostgres } from '../../libs/devstack/src/postgres.mjs';
import { lanAddresses, startHttpsProxy } from './https.mjs';
import {
  accountSecretsKey,
  checksCredentialsKey,
  checksUploadSigningKey,
  engagementCredentialsKey,
  passSecretsKey,
  signingKeys,
  validationsSecretKey,
} from './keys.mjs';
import { connectDemoMessaging, SANDBOX_MESSAGING_DEMO, seedDemoFlow, seedDemoTenant, seedPassClient } from './seed.mjs';
import { serviceEntry, startService, superviseService } from './services.mjs';
import { startSmtpSink } from './smtp-sink.mjs';
import { dist, repoRoot, StackError } from './util.mjs';

export {
  DEMO,
  DEMO_FLOW,
  DEMO_PASS,
  SANDBOX_MESSAGING_DEMO,
  seedDemoFlow,
  seedDemoTenant,
  seedPassClient,
} from './seed.mjs';

async function sandboxMessagingSecrets(dir) {
  const file = path.join(dir, 'sandbox-messaging.json');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    const secrets = {
      access_token: `sandbox-${randomBytes(16).toString('hex')}`,
      app_secret: randomBytes(16).toString('hex'),
      verify_token: `verify-${randomBytes(8).toString('hex')}`,
    };
    await writeFile(file, `${JSON.stringify(secrets)}\n`, { mode: 0o600 });
  }
  return JSON.parse(await readFile(file, 'utf8'));
}

/**
 * Starts the SANDBOX messaging provider (a small server speaking the WhatsApp Cloud API subset the
 * engagement service uses; libs/devstack/src/sandbox-messaging) with the demo WABA.
 */
async function startSandboxMessagingProvider({ keysDir, port, log }) {
  const { startSandboxMessaging } = dist('libs/devstack/src/sandbox-messaging/sandbox-messaging.server.js');
  const secrets = await sandboxMessagingSecrets(keysDir);
  const sandbox = await startSandboxMessaging({
    port,
    accessToken: secrets.access_token,
    appSecret: secrets.app_secret,
    wabas: [
      {
        id: SANDBOX_MESSAGING_DEMO.wabaId,
        phoneNumbers: [
          { id: SANDBOX_MESSAGING_DEMO.phoneNumberId, display_phone_number: SANDBOX_MESSAGING_DEMO.phone },
        ],
      },
    ],
  });
  log(`sandbox messaging provider at ${sandbox.url}`);
  return { sandbox, secrets };
}

export function serviceNames() {
  return Object.keys(dist('libs/contracts/src/services.js').SERVICES);
}

/**
 * Starts everything and resolves with a handle: { info (the stack.json content), stop() }.
 * options: stackDir, ports { postgres, kafka, kafkaController, services: {name: port} },
 *          databaseUrl / kafkaBrokers (use external ones, start neither), services (names to
 *          start, default all; [] for infrastructure only), serviceEnv, seed, log, supervise (restart a
 *          service that dies, with backoff: the stack command).
 *          With account, validations or pass: an SMTP sink for email actions, e-mail OTPs and sign-in codes
 *          (ports.smtp, else STACK_SMTP_PORT, else 2525 or any free port), storing messages under <stackDir>/mail/.
 *          With engagement: the sandbox messaging provider (ports.sandboxMessaging, else
 *          STACK_SANDBOX_MESSAGING_PORT, else any free port), the demo tenant's adapter pointed at it.
 */
export async function startStack(options = {}) {
  const log = options.log ?? (() => {});
  const stackDir = options.stackDir ?? path.join(repoRoot, '.stack');
  const ports = options.ports ?? {};
  const { SERVICES } = dist('libs/contracts/src/services.js');
  const { TOPIC_SPECS } = dist('libs/contracts/src/topics.js');
  // The seven services and the operator console (apps/console, port 4000), which calls them.
  const names = options.services ?? [...Object.keys(SERVICES), 'console'];
  for (const name of names)
    if (!existsSync(serviceEntry(name)))
      throw new StackError(`dist for ${name} is missing: run \`npm run build\` first`);
  const stoppers = [];
  const stop = async () => {
    for (const s of stoppers.splice(0).reverse()) await s().catch(() => {});
  };
  // Before anything starts: as root, PostgreSQL's user must be able to reach its files.
  if (!options.databaseUrl) assertPostgresUserCanReach([stackDir, repoRoot]);
  try {
    const started = Date.now();
    const [postgres, kafka] = await Promise.all([
      options.databaseUrl
        ? { url: options.databaseUrl }
        : (log('starting PostgreSQL'),
          startPostgres({ dir: path.join(stackDir, 'postgres'), port: ports.postgres ?? 5432, log })).then((p) => {
            stoppers.push(p.stop);
            log(`PostgreSQL ready (${Date.now() - started} ms)`);
            return p;
          }),
      options.kafkaBrokers
        ? { brokers: options.kafkaBrokers }
        : (log('starting Kafka'),
          startKafka({
            dir: path.join(stackDir, 'kafka'),
            cacheDir: path.join(options.cacheDir ?? path.join(repoRoot, '.stack'), 'cache'),
            port: ports.kafka ?? 9092,
            controllerPort: ports.kafkaController ?? 9093,
            log,
          })).then((k) => {
            stoppers.push(k.stop);
            log(`Kafka ready (${Date.now() - started} ms)`);
            return k;
          }),
    ]);
    await ensureTopics(kafka.brokers, TOPIC_SPECS);
    const keys = await signingKeys(path.join(stackDir, 'keys'));
    let smtp;
    if (['account', 'validations', 'pass', 'console'].some((n) => names.includes(n))) {
      const smtpPort = ports.smtp ?? (process.env.STACK_SMTP_PORT ? Number(process.env.STACK_SMTP_PORT) : undefined);
      smtp = await startSmtpSink({ dir: path.join(stackDir, 'mail'), port: smtpPort, log });
      stoppers.push(smtp.stop);
      log(`SMTP sink at ${smtp.url}; messages in ${path.relative(repoRoot, smtp.dir) || smtp.dir}`);
    }
    let messaging;
    if (names.includes('engagement')) {
      const port =
        ports.sandboxMessaging ??
        (process.env.STACK_SANDBOX_MESSAGING_PORT ? Number(process.env.STACK_SANDBOX_MESSAGING_PORT) : 0);
      messaging = await startSandboxMessagingProvider({ keysDir: path.join(stackDir, 'keys'), port, log });
      stoppers.push(messaging.sandbox.stop);
    }
    const common = {
      DATABASE_URL: postgres.url,
      KAFKA_BROKERS: kafka.brokers.join(','),
      API_KEY_PUBLIC_KEY: keys.publicKey,
      DB_MIGRATE_ON_START: 'true',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      HOST: '127.0.0.1',
      // Local receivers (rules http_request actions, webhooks) listen on this machine: the SSRF policy
      // lets loopback through here, and only here (production leaves OUTBOUND_HTTP_ALLOW empty).
      OUTBOUND_HTTP_ALLOW: process.env.OUTBOUND_HTTP_ALLOW ?? 'loopback',
      ...(options.serviceEnv ?? {}),
    };
    log(
      common.OUTBOUND_HTTP_ALLOW
        ? `SSRF policy: outbound HTTP (rules actions, webhooks) may also reach ${common.OUTBOUND_HTTP_ALLOW} ` +
            '(OUTBOUND_HTTP_ALLOW, for local receivers; leave it empty in production)'
        : 'SSRF policy: outbound HTTP reaches public addresses only',
    );
    const servicePort = (name) =>
      ports.services?.[name] ??
      Number(process.env[`${name.toUpperCase()}_PORT`] ?? (name === 'console' ? 4000 : SERVICES[name].port));
    // STACK_HTTPS=1 (tools/stack/https.mjs): identity behind a TLS proxy on the local network, for phones.
    const httpsPort = Number(process.env.STACK_HTTPS_PORT ?? 8443);
    const httpsOn = process.env.STACK_HTTPS === '1' && names.includes('identity');
    const identityPublic = httpsOn
      ? { PUBLIC_URL: `https://${lanAddresses()[0] ?? 'localhost'}:${httpsPort}`, TRUSTED_PROXIES: 'loopback' }
      : {};
    log(`starting services: ${names.join(', ')}`);
    // Each service's environment (also the operator commands' of the seed).
    const envOf = async (name) => ({
      ...common,
      DB_SCHEMA: name === 'console' ? 'console' : SERVICES[name].schema,
      ...(name === 'identity'
        ? {
            API_KEY_PRIVATE_KEY: keys.privateKey,
            IDENTITY_VALIDATIONS_URL: `http://localhost:${servicePort('validations')}`,
            IDENTITY_ENGAGEMENT_URL: `http://localhost:${servicePort('engagement')}`,
            IDENTITY_SMTP_URL: smtp.url,
            ...identityPublic,
          }
        : {}),
      ...(name === 'account'
        ? { ACCOUNT_SECRETS_KEY: await accountSecretsKey(path.join(stackDir, 'keys')), ACCOUNT_SMTP_URL: smtp.url }
        : {}),
      ...(name === 'checks'
        ? {
            CHECKS_CREDENTIALS_KEY: await checksCredentialsKey(path.join(stackDir, 'keys')),
            CHECKS_UPLOAD_SIGNING_KEY: await checksUploadSigningKey(path.join(stackDir, 'keys')),
          }
        : {}),
      ...(name === 'validations'
        ? {
            VALIDATIONS_SECRET_KEY: await validationsSecretKey(path.join(stackDir, 'keys')),
            VALIDATIONS_SMTP_URL: smtp.url,
          }
        : {}),
      ...(name === 'pass'
        ? {
            PASS_SECRETS_KEY: await passSecretsKey(path.join(stackDir, 'keys')),
            PASS_SMTP_URL: smtp.url,
            PASS_SANDBOX_OUTBOX_DIR: path.join(stackDir, 'pass-messages'),
          }
        : {}),
      ...(name === 'console'
        ? {
            API_KEY_PRIVATE_KEY: keys.privateKey,
            CONSOLE_SECRET_KEY: createHash('sha256').update(`console-secret:${keys.privateKey}`).digest('hex'),
            CONSOLE_SMTP_URL: smtp.url,
            ...Object.fromEntries(
              Object.keys(SERVICES).map((s) => [
                `CONSOLE_${s.toUpperCase()}_URL`,
                `http://127.0.0.1:${servicePort(s)}`,
              ]),
            ),
          }
        : {}),
      ...(name === 'engagement'
        ? {
            ENGAGEMENT_CREDENTIALS_KEY: await engagementCredentialsKey(path.join(stackDir, 'keys')),
            ENGAGEMENT_GRAPH_BASE_URL: messaging.sandbox.graphUrl,
          }
        : {}),
      ...(options.serviceEnv ?? {}),
    });
    // allSettled: when one service fails to start, the others still starting are waited for and
    // stopped with the rest, never left running.
    const settled = await Promise.allSettled(
      names.map(async (name) => {
        const env = await envOf(name);
        const serviceOptions = { name, port: servicePort(name), env, logsDir: path.join(stackDir, 'logs') };
        // options.supervise (the stack command): a service that dies is restarted with backoff.
        const svc = options.supervise
          ? await superviseService(serviceOptions, { log })
          : await startService(serviceOptions);
        stoppers.push(svc.stop);
        log(`${name} ready at ${svc.url} (${Date.now() - started} ms)`);
        return svc;
      }),
    );
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const running = settled.map((r) => r.value);
    const services = Object.fromEntries(running.map((s) => [s.name, s.url]));
    let secure;
    if (httpsOn) {
      secure = await startHttpsProxy({
        dir: path.join(stackDir, 'keys'),
        port: httpsPort,
        target: services.identity,
        log,
      });
      stoppers.push(secure.stop);
    }
    const info = {
      services,
      ...(secure ? { identity_https: secure.urls } : {}),
      postgres_url: postgres.url,
      kafka_brokers: kafka.brokers,
      ...(smtp ? { smtp: { url: smtp.url, mail_dir: smtp.dir } } : {}),
      ...(messaging ? { sandbox_messaging: messaging.sandbox.url } : {}),
    };
    if (messaging) messaging.sandbox.setWebhookUrl(`${services.engagement}/v1/msg/whatsapp/statuses`);
    const stackFile = path.join(stackDir, 'stack.json');
    if (options.seed !== false && services.account && services.identity && services.checks) {
      const previous = existsSync(stackFile) ? JSON.parse(await readFile(stackFile, 'utf8')) : {};
      const demo = await seedDemoTenant({ services, envOf, previousKey: previous.api_key });
      Object.assign(info, { api_key: demo.apiKey, tenant_id: demo.tenantId, admin_user: demo.adminUser.username });
      info.identity_flow_id = await seedDemoFlow({
        services,
        apiKey: demo.apiKey,
        previousFlowId: previous.identity_flow_id,
      });
      if (messaging && services.engagement)
        await connectDemoMessaging({
          engagementUrl: services.engagement,
          apiKey: demo.apiKey,
          secrets: messaging.secrets,
        });
    }
    if (options.seed !== false && services.pass) {
      const previous = existsSync(stackFile) ? JSON.parse(await readFile(stackFile, 'utf8')) : {};
      info.pass_client = await seedPassClient({
        passUrl: services.pass,
        privateKey: keys.privateKey,
        previous: previous.pass_client,
      });
    }
    await mkdir(stackDir, { recursive: true });
    // It holds a full-access key of the demo tenant: readable by its owner only.
    await writeFile(stackFile, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
    await chmod(stackFile, 0o600);
    return { info, keys, processes: running, stop, startedInMs: Date.now() - started, stackFile };
  } catch (err) {
    await stop();
    throw err;
  }
}
