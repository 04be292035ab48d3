// The whole platform on one machine: PostgreSQL, Kafka, the seven services and a demo tenant.
// Used by `npm start` (tools/stack/cli.mjs), by the integration-test harness and by the benchmark.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ensureTopics, startKafka } from './kafka.mjs';
import { startPostgres } from './postgres.mjs';
import { serviceEntry, startService } from './services.mjs';
import { startSmtpSink } from './smtp-sink.mjs';
import { repoRoot, StackError, waitFor } from './util.mjs';

const require = createRequire(import.meta.url);

function dist(module) {
  const file = path.join(repoRoot, 'dist', module);
  if (!existsSync(file))
    throw new StackError(`${path.relative(repoRoot, file)} is missing: run \`npm run build\` first`);
  return require(file);
}

export const DEMO = {
  tenantId: 'demo',
  tenantName: 'Demo tenant',
  adminEmail: 'admin@demo.local',
  billingHubs: ['HUB-DEMO'],
};

async function signingKeys(dir) {
  const pub = path.join(dir, 'api-key-signing.pub.pem');
  const priv = path.join(dir, 'api-key-signing.pem');
  if (!existsSync(priv)) {
    const { generateSigningKeys } = dist('libs/platform/src/auth/api-key.tokens.js');
    const keys = generateSigningKeys();
    await mkdir(dir, { recursive: true });
    await writeFile(priv, keys.privateKey, { mode: 0o600 });
    await writeFile(pub, keys.publicKey);
  }
  return { privateKey: await readFile(priv, 'utf8'), publicKey: await readFile(pub, 'utf8') };
}

/** The account service's key for secrets at rest (ACCOUNT_SECRETS_KEY), generated once per stack dir. */
async function accountSecretsKey(dir) {
  const file = path.join(dir, 'account-secrets.key');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  }
  return (await readFile(file, 'utf8')).trim();
}

/** The checks service's key for collector credentials at rest (CHECKS_CREDENTIALS_KEY, 32 bytes base64), generated once per stack dir. */
async function checksCredentialsKey(dir) {
  const file = path.join(dir, 'checks-credentials.key');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  }
  return (await readFile(file, 'utf8')).trim();
}

/** The checks service's key that signs batch upload links (CHECKS_UPLOAD_SIGNING_KEY), generated once per stack dir. */
async function checksUploadSigningKey(dir) {
  const file = path.join(dir, 'checks-upload-signing.key');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  }
  return (await readFile(file, 'utf8')).trim();
}

async function validationsSecretKey(dir) {
  const file = path.join(dir, 'validations-secret.key');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  }
  return (await readFile(file, 'utf8')).trim();
}

async function call(url, { method = 'GET', token, body } = {}) {
  const res = await fetch(url, {
    method,
    headers: {
      ...(token ? { 'Service-API-Key': token } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}

/** Creates (or finds) the demo tenant and its full_access admin, and a version-1 backend key for it. */
export async function seedDemoTenant({ services, privateKey, previousKey, tenant = DEMO }) {
  const { ApiKeySigner } = dist('libs/platform/src/auth/api-key.tokens.js');
  const operator = new ApiKeySigner(privateKey).platformAdminToken('stack');
  const created = await call(`${services.account}/v1/admin/tenants`, {
    method: 'POST',
    token: operator,
    body: {
      tenant_id: tenant.tenantId,
      name: tenant.tenantName,
      admin_email: tenant.adminEmail,
      billing_hubs: tenant.billingHubs,
    },
  });
  if (created.status >= 300)
    throw new StackError(`creating the demo tenant failed: ${created.status} ${JSON.stringify(created.body)}`);
  const admin = created.body.admin_user;
  let apiKey = previousKey;
  const works = async (key) => key && (await call(`${services.checks}/v1/checks`, { token: key })).status === 200;
  if (!(await works(apiKey))) {
    const issued = await call(`${services.identity}/v1/admin/api-keys`, {
      method: 'POST',
      token: operator,
      body: {
        tenant_id: tenant.tenantId,
        user_id: admin.user_id,
        key_name: 'demo',
        key_type: 'backend',
        api_key_version: 1,
      },
    });
    if (issued.status >= 300)
      throw new StackError(`issuing the demo API key failed: ${issued.status} ${JSON.stringify(issued.body)}`);
    apiKey = issued.body.api_key;
    // The user and role reach every service's access cache through Kafka; wait until they have.
    await waitFor(() => works(apiKey), {
      timeoutMs: 15_000,
      intervalMs: 100,
      what: 'demo API key accepted by the services',
    });
  }
  return { apiKey, tenantId: tenant.tenantId, adminUser: admin };
}

/** The demo identity flow a person can complete in the web page: form, e-mail code, document, selfie. */
export const DEMO_FLOW = {
  name: 'Demo onboarding',
  redirect_url: 'https://example.com/verified',
  timeout_seconds: 3600,
  steps: [
    {
      type: 'form',
      fields: [
        { name: 'first_name', label: 'First name' },
        { name: 'last_name', label: 'Last name' },
      ],
    },
    { type: 'email' },
    { type: 'document' },
    { type: 'face' },
  ],
};

/** Creates the demo flow unless the previous run's flow still exists; returns its id. */
export async function seedDemoFlow({ services, apiKey, previousFlowId }) {
  if (previousFlowId) {
    const found = await call(`${services.identity}/v1/flows/${encodeURIComponent(previousFlowId)}`, { token: apiKey });
    if (found.status === 200) return previousFlowId;
  }
  const created = await call(`${services.identity}/v1/flows`, { method: 'POST', token: apiKey, body: DEMO_FLOW });
  if (created.status >= 300)
    throw new StackError(`creating the demo flow failed: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.flow_id;
}

export function serviceNames() {
  return Object.keys(dist('libs/contracts/src/services.js').SERVICES);
}

/**
 * Starts everything and resolves with a handle: { info (the stack.json content), stop() }.
 * options: stackDir, ports { postgres, kafka, kafkaController, services: {name: port} },
 *          databaseUrl / kafkaBrokers (use external ones, start neither), services (names to
 *          start, default all; [] for infrastructure only), serviceEnv, seed, log.
 *          With account or validations: an SMTP sink for email actions and e-mail OTPs (ports.smtp,
 *          else STACK_SMTP_PORT, else 2525 or any free port), storing messages under <stackDir>/mail/.
 */
export async function startStack(options = {}) {
  const log = options.log ?? (() => {});
  const stackDir = options.stackDir ?? path.join(repoRoot, '.stack');
  const ports = options.ports ?? {};
  const { SERVICES } = dist('libs/contracts/src/services.js');
  const { TOPIC_SPECS } = dist('libs/contracts/src/topics.js');
  const names = options.services ?? Object.keys(SERVICES);
  for (const name of names)
    if (!existsSync(serviceEntry(name)))
      throw new StackError(`dist for ${name} is missing: run \`npm run build\` first`);
  const stoppers = [];
  const stop = async () => {
    for (const s of stoppers.splice(0).reverse()) await s().catch(() => {});
  };
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
    if (names.includes('account') || names.includes('validations')) {
      const smtpPort = ports.smtp ?? (process.env.STACK_SMTP_PORT ? Number(process.env.STACK_SMTP_PORT) : undefined);
      smtp = await startSmtpSink({ dir: path.join(stackDir, 'mail'), port: smtpPort, log });
      stoppers.push(smtp.stop);
      log(`SMTP sink at ${smtp.url}; messages in ${path.relative(repoRoot, smtp.dir) || smtp.dir}`);
    }
    const common = {
      DATABASE_URL: postgres.url,
      KAFKA_BROKERS: kafka.brokers.join(','),
      API_KEY_PUBLIC_KEY: keys.publicKey,
      DB_MIGRATE_ON_START: 'true',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      HOST: '127.0.0.1',
      ...(options.serviceEnv ?? {}),
    };
    const servicePort = (name) =>
      ports.services?.[name] ?? Number(process.env[`${name.toUpperCase()}_PORT`] ?? SERVICES[name].port);
    log(`starting services: ${names.join(', ')}`);
    // allSettled: when one service fails to start, the others still starting are waited for and
    // stopped with the rest, never left running.
    const settled = await Promise.allSettled(
      names.map(async (name) => {
        const env = {
          ...common,
          DB_SCHEMA: SERVICES[name].schema,
          ...(name === 'identity'
            ? {
                API_KEY_PRIVATE_KEY: keys.privateKey,
                IDENTITY_VALIDATIONS_URL: `http://localhost:${servicePort('validations')}`,
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
          ...(options.serviceEnv ?? {}),
        };
        const svc = await startService({ name, port: servicePort(name), env, logsDir: path.join(stackDir, 'logs') });
        stoppers.push(svc.stop);
        log(`${name} ready at ${svc.url} (${Date.now() - started} ms)`);
        return svc;
      }),
    );
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const running = settled.map((r) => r.value);
    const services = Object.fromEntries(running.map((s) => [s.name, s.url]));
    const info = {
      services,
      postgres_url: postgres.url,
      kafka_brokers: kafka.brokers,
      ...(smtp ? { smtp: { url: smtp.url, mail_dir: smtp.dir } } : {}),
    };
    const stackFile = path.join(stackDir, 'stack.json');
    if (options.seed !== false && services.account && services.identity && services.checks) {
      const previous = existsSync(stackFile) ? JSON.parse(await readFile(stackFile, 'utf8')) : {};
      const demo = await seedDemoTenant({ services, privateKey: keys.privateKey, previousKey: previous.api_key });
      Object.assign(info, { api_key: demo.apiKey, tenant_id: demo.tenantId, admin_user: demo.adminUser.username });
      info.identity_flow_id = await seedDemoFlow({
        services,
        apiKey: demo.apiKey,
        previousFlowId: previous.identity_flow_id,
      });
    }
    await mkdir(stackDir, { recursive: true });
    await writeFile(stackFile, `${JSON.stringify(info, null, 2)}\n`);
    return { info, keys, processes: running, stop, startedInMs: Date.now() - started, stackFile };
  } catch (err) {
    await stop();
    throw err;
  }
}
