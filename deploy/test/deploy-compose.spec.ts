/** Deployment files kept consistent with the code (see deploy-fixture.ts): compose. */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { TOPIC_SPECS } from '@kyc/contracts';

import {
  ACCEPTED,
  ADMIN_COMMANDS,
  adminInvocations,
  compose,
  composeEnv,
  expectConfigLoads,
  healthPort,
  interpolate,
  REQUIRED,
  ROOT,
  SERVICE_NAMES,
  SERVICES,
} from './deploy-fixture';

describe('docker-compose.yml', () => {
  const services = compose.services as Record<string, any>;
  const apps = SERVICE_NAMES.map((name) => [name, services[name]] as const);

  it('has postgres, kafka, kafka-init, the seven apps, the mail sink and the seed', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['kafka', 'kafka-init', 'mailpit', 'postgres', 'seed', ...SERVICE_NAMES].sort(),
    );
    expect(apps.filter(([, s]) => s).length).toBe(SERVICE_NAMES.length);
  });

  it('sends every e-mail to the mail sink unless told otherwise, and publishes its web page', () => {
    const mailpit = services.mailpit;
    expect(mailpit.image).toMatch(/^axllent\/mailpit:v\d+\.\d+/);
    expect(mailpit.ports.map((p: unknown) => interpolate(p))).toContain('8025:8025');
    for (const [name, variable] of [
      ['account', 'ACCOUNT_SMTP_URL'],
      ['pass', 'PASS_SMTP_URL'],
      ['validations', 'VALIDATIONS_SMTP_URL'],
    ] as const) {
      expect([name, ACCEPTED[name].has(variable)]).toEqual([name, true]);
      const url = new URL(composeEnv(services[name])[variable]);
      expect([name, url.protocol, url.hostname, url.port]).toEqual([name, 'smtp:', 'mailpit', '1025']);
    }
  });

  it('seed: a one-shot after account and identity are healthy, running the operator commands of the image', () => {
    const seed = services.seed;
    expect(interpolate(seed.image)).toBe(interpolate(services.account.image));
    expect(seed.restart).toBe('no');
    expect(seed.depends_on).toEqual({
      account: { condition: 'service_healthy' },
      identity: { condition: 'service_healthy' },
    });
    const script = interpolate(seed.command.join('\n'));
    const commands = adminInvocations(script);
    expect(commands.map((c) => `${c.service} ${c.command}`)).toEqual(['account create-tenant', 'identity issue-key']);
    const env = composeEnv(seed);
    for (const c of commands) {
      expectConfigLoads(c.service, { ...env, ...c.env }, `compose seed ${c.service}`);
      expect(Object.keys(ADMIN_COMMANDS[c.service])).toContain(c.command);
    }
    // The secrets come from the environment of `docker compose`, never from the file.
    expect(seed.environment.API_KEY_PRIVATE_KEY).toMatch(/^\$\{API_KEY_PRIVATE_KEY[:?}]/);
    expect(seed.environment.ACCOUNT_SECRETS_KEY).toMatch(/^\$\{ACCOUNT_SECRETS_KEY[:?}]/);
  });

  it('runs PostgreSQL 17 and Kafka 3.9.1 in KRaft mode without topic auto-creation', () => {
    expect(services.postgres.image).toBe('postgres:17');
    expect(services.postgres.healthcheck).toBeDefined();
    const kafka = services.kafka;
    expect(kafka.image).toBe('apache/kafka:3.9.1');
    const env = composeEnv(kafka);
    expect(env.KAFKA_NODE_ID).toBe('1');
    expect(env.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(env.KAFKA_LISTENERS).toMatch(/CONTROLLER:\/\//);
    expect(env.KAFKA_CONTROLLER_LISTENER_NAMES).toBe('CONTROLLER');
    expect(env.KAFKA_CONTROLLER_QUORUM_VOTERS).toBe(`${env.KAFKA_NODE_ID}@kafka:9093`);
    expect(env.KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS).toBe('0');
    expect(env.KAFKA_AUTO_CREATE_TOPICS_ENABLE).toBe('false');
    expect(kafka.healthcheck).toBeDefined();
  });

  it('kafka-init creates exactly the topics of TOPIC_SPECS (state topics compacted) from the Kafka image', () => {
    const init = services['kafka-init'];
    expect(init.image).toBe(services.kafka.image);
    expect(init.depends_on?.kafka?.condition).toBe('service_healthy');
    const script = interpolate((Array.isArray(init.command) ? init.command : [init.command]).join('\n'));
    expect(script).toMatch(/kafka-topics\.sh/);
    const created = script
      .split('\n')
      .filter((l) => /--create\b/.test(l))
      .map((l) => ({
        name: /--topic\s+(\S+)/.exec(l)?.[1],
        partitions: Number(/--partitions\s+(\d+)/.exec(l)?.[1]),
        compacted: /cleanup\.policy=compact\b/.test(l),
        bootstrap: /--bootstrap-server\s+(\S+)/.exec(l)?.[1],
      }));
    const byName = (a: { name?: string }, b: { name?: string }) => String(a.name).localeCompare(String(b.name));
    expect(created.map(({ name, partitions, compacted }) => ({ name, partitions, compacted })).sort(byName)).toEqual(
      TOPIC_SPECS.map(({ name, partitions, compacted }) => ({ name, partitions, compacted })).sort(byName),
    );
    const advertised = composeEnv(services.kafka)
      .KAFKA_ADVERTISED_LISTENERS.split(',')
      .map((l) => l.replace(/^\w+:\/\//, ''));
    for (const c of created) expect(advertised).toContain(c.bootstrap);
  });

  it.each(SERVICE_NAMES)('%s: image, port, healthcheck and dependencies', (name) => {
    const svc = services[name];
    const { port } = SERVICES[name];
    expect(interpolate(svc.image)).toBe(interpolate(services.checks.image));
    expect(svc.build?.context ?? svc.build).toBe('.');
    expect(existsSync(path.join(ROOT, svc.build?.dockerfile ?? 'Dockerfile'))).toBe(true);
    const published = (svc.ports ?? []).map((p: unknown) => Number(interpolate(p).split('/')[0].split(':').at(-1)));
    expect(published).toContain(port);
    expect(healthPort(svc.healthcheck?.test)).toBe(port);
    expect(svc.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      kafka: { condition: 'service_healthy' },
      'kafka-init': { condition: 'service_completed_successfully' },
    });
  });

  it.each(SERVICE_NAMES)('%s: environment is accepted by its config class and complete', (name) => {
    const env = composeEnv(services[name]);
    for (const [k, v] of Object.entries(services[name].environment ?? {})) expect([k, typeof v]).toEqual([k, 'string']);
    expect(Object.keys(env).filter((v) => !ACCEPTED[name].has(v))).toEqual([]);
    for (const v of REQUIRED[name]) expect([v, env[v] ? 'set' : 'missing']).toEqual([v, 'set']);
    expect(env.SERVICE_NAME).toBe(name);
    expect(env.PORT).toBe(String(SERVICES[name].port));
    expect(env.DB_SCHEMA).toBe(SERVICES[name].schema);
    expect(env.DB_MIGRATE_ON_START).toBe('true');
    expect('API_KEY_PRIVATE_KEY' in env).toBe(name === 'identity' || name === 'console');
    // Secrets come from the environment of `docker compose`, never from the file.
    expect(services[name].environment.API_KEY_PUBLIC_KEY).toMatch(/^\$\{API_KEY_PUBLIC_KEY[:?}]/);
    if (name === 'identity')
      expect(services[name].environment.API_KEY_PRIVATE_KEY).toMatch(/^\$\{API_KEY_PRIVATE_KEY[:?}]/);
    if (name === 'account')
      expect(services[name].environment.ACCOUNT_SECRETS_KEY).toMatch(/^\$\{ACCOUNT_SECRETS_KEY[:?}]/);
    if (name === 'checks')
      expect(services[name].environment.CHECKS_CREDENTIALS_KEY).toMatch(/^\$\{CHECKS_CREDENTIALS_KEY[:?}]/);
    if (name === 'engagement')
      expect(services[name].environment.ENGAGEMENT_CREDENTIALS_KEY).toMatch(/^\$\{ENGAGEMENT_CREDENTIALS_KEY[:?}]/);
    if (name === 'pass') expect(services[name].environment.PASS_SECRETS_KEY).toMatch(/^\$\{PASS_SECRETS_KEY[:?}]/);
    // Brokers and database are the ones of this file.
    const advertised = composeEnv(services.kafka).KAFKA_ADVERTISED_LISTENERS;
    for (const b of env.KAFKA_BROKERS.split(',')) expect(advertised).toContain(`://${b}`);
    const db = new URL(env.DATABASE_URL);
    const pg = composeEnv(services.postgres);
    expect([db.hostname, db.username, db.password, db.pathname.slice(1)]).toEqual([
      'postgres',
      pg.POSTGRES_USER,
      pg.POSTGRES_PASSWORD,
      pg.POSTGRES_DB,
    ]);
    expectConfigLoads(name, env, `compose ${name}`);
  });
});
