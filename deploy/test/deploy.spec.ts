/**
 * Keeps the deployment files consistent with the code. Nothing here starts a container (there is
 * no Docker engine or cluster in CI): the Dockerfile, docker-compose.yml and the kustomize
 * manifests under deploy/ are parsed and checked against libs/contracts (ports, schemas, topics)
 * and against each app's config class (the variables it accepts and the ones it requires).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { SERVICE_NAMES, ServiceName, SERVICES, TOPIC_SPECS } from '@kyc/contracts';
import type { PlatformConfig } from '@kyc/platform';
import { getMetadataStorage } from 'class-validator';
import { parse, parseAllDocuments } from 'yaml';

type Env = Record<string, string>;
type Loader = (env: NodeJS.ProcessEnv) => PlatformConfig;
type ConfigClass = new () => PlatformConfig;

const ROOT = path.resolve(__dirname, '../..');
const DEPLOY = path.join(ROOT, 'deploy');
const BASE = path.join(DEPLOY, 'base');
const OVERLAYS = path.join(DEPLOY, 'overlays');
const PRODUCTION = path.join(OVERLAYS, 'production');

/** The image every Deployment of the base uses; overlays rewrite it with `images:`. */
const BASE_IMAGE = 'kyc-platform';
const SECRET_PLACEHOLDER = 'placeholder-secret-value';
/** /metrics has a port of its own in the cluster (METRICS_PORT); the Service exposes only the service port. */
const METRICS_PORT = 9464;

/**
 * A service's env class and loader, found by name as the stack finds a service
 * (apps/<name>/src/config/<name>.config.ts exports <Name>Config and load<Name>Config): the deploy
 * checks read every app's configuration without importing app code.
 */
function appConfig(name: ServiceName): { cls: ConfigClass; load: Loader } {
  const title = name[0].toUpperCase() + name.slice(1);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by name at run time (see above)
  const loaded = require(path.join(ROOT, 'apps', name, 'src/config', `${name}.config`)) as Record<string, unknown>;
  const cls = loaded[`${title}Config`];
  const load = loaded[`load${title}Config`];
  if (typeof cls !== 'function' || typeof load !== 'function')
    throw new Error(`apps/${name}/src/config/${name}.config.ts exports no ${title}Config and load${title}Config`);
  return { cls: cls as ConfigClass, load: load as Loader };
}

const APPS = Object.fromEntries(SERVICE_NAMES.map((name) => [name, appConfig(name)])) as Record<
  ServiceName,
  { cls: ConfigClass; load: Loader }
>;

// ---------------------------------------------------------------------------------------------
// What the config classes accept and require
// ---------------------------------------------------------------------------------------------

/** Every property of the config class (own and inherited) that carries a class-validator decorator. */
function acceptedVariables(cls: ConfigClass): Set<string> {
  return new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(cls, '', true, false)
      .map((m) => m.propertyName),
  );
}

/**
 * The variables the app cannot start without: load the config from an empty environment, add a
 * placeholder for every variable the error names, and repeat until it loads.
 */
function requiredVariables(load: Loader): string[] {
  const env: Env = {};
  for (let round = 0; round < 20; round++) {
    try {
      load(env);
      return Object.keys(env).sort();
    } catch (err) {
      const named = [...String((err as Error).message).matchAll(/^\s+([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]);
      if (!named.length || named.some((n) => n in env)) throw err;
      for (const n of named) env[n] = SECRET_PLACEHOLDER;
    }
  }
  throw new Error('required variables did not converge');
}

const ACCEPTED = Object.fromEntries(SERVICE_NAMES.map((n) => [n, acceptedVariables(APPS[n].cls)])) as Record<
  ServiceName,
  Set<string>
>;
const REQUIRED = Object.fromEntries(SERVICE_NAMES.map((n) => [n, requiredVariables(APPS[n].load)])) as Record<
  ServiceName,
  string[]
>;
const ACCEPTED_BY_ALL = new Set([...ACCEPTED.checks].filter((v) => SERVICE_NAMES.every((n) => ACCEPTED[n].has(v))));

/** Loads the app's config from an environment as a container would see it; returns the error text or the config. */
function loadFrom(name: ServiceName, env: Env): { config?: PlatformConfig; error?: string } {
  try {
    return { config: APPS[name].load(env) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

function expectConfigLoads(name: ServiceName, env: Env, where: string) {
  const { config, error } = loadFrom(name, env);
  expect({ where, error }).toEqual({ where, error: undefined });
  expect({ where, SERVICE_NAME: config!.SERVICE_NAME, PORT: config!.PORT, DB_SCHEMA: config!.DB_SCHEMA }).toEqual({
    where,
    SERVICE_NAME: name,
    PORT: SERVICES[name].port,
    DB_SCHEMA: SERVICES[name].schema,
  });
}

// ---------------------------------------------------------------------------------------------
// File helpers
// ---------------------------------------------------------------------------------------------

const read = (file: string) => readFileSync(file, 'utf8');
const rel = (file: string) => path.relative(ROOT, file);

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...yamlFiles(full));
    else if (/\.ya?ml$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

/** All documents of a (multi-document) YAML file; a syntax error fails the test. */
function readDocs(file: string): any[] {
  const docs = Array.from(parseAllDocuments(read(file)) as Iterable<any>);
  for (const d of docs)
    if (d.errors?.length) throw new Error(`${rel(file)}: ${d.errors.map((e: Error) => e.message).join('; ')}`);
  return docs.map((d) => d.toJS()).filter((d) => d != null);
}

interface Manifest {
  file: string;
  doc: any;
}

function manifests(dir: string): Manifest[] {
  return yamlFiles(dir)
    .filter((f) => path.basename(f) !== 'kustomization.yaml')
    .flatMap((file) => readDocs(file).map((doc) => ({ file, doc })));
}

/** Everything a kustomization.yaml points at, as absolute paths. */
function kustomizationRefs(dir: string): { kustomization: any; refs: string[] } {
  const kustomization = readDocs(path.join(dir, 'kustomization.yaml'))[0];
  const refs = [
    ...(kustomization.resources ?? []),
    ...(kustomization.components ?? []),
    ...(kustomization.patches ?? []).filter((p: any) => p.path).map((p: any) => p.path),
    ...(kustomization.patchesStrategicMerge ?? []),
    ...(kustomization.configMapGenerator ?? []).flatMap((g: any) => [...(g.files ?? []), ...(g.envs ?? [])]),
    ...(kustomization.secretGenerator ?? []).flatMap((g: any) => [...(g.files ?? []), ...(g.envs ?? [])]),
  ].map((r: string) => path.resolve(dir, r.includes('=') ? r.split('=')[1] : r));
  return { kustomization, refs };
}

// ---------------------------------------------------------------------------------------------
// Kubernetes: environment of a container
// ---------------------------------------------------------------------------------------------

interface ResolvedEnv {
  /** Every variable name the container gets (ConfigMap keys through envFrom, then env). */
  names: string[];
  /** Values as the process would see them (secrets replaced by a placeholder). */
  values: Env;
  /** Variables read from Secrets: name -> "secret/key". */
  secrets: Record<string, string>;
}

function resolveEnv(container: any, configMaps: Map<string, Env>): ResolvedEnv {
  const names: string[] = [];
  const values: Env = {};
  const secrets: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) {
      const data = configMaps.get(from.configMapRef.name);
      if (!data) throw new Error(`container ${container.name}: ConfigMap ${from.configMapRef.name} is not defined`);
      for (const [k, v] of Object.entries(data)) {
        names.push(k);
        values[k] = v;
      }
    } else throw new Error(`container ${container.name}: unsupported envFrom ${JSON.stringify(from)}`);
  }
  for (const e of container.env ?? []) {
    names.push(e.name);
    if (e.valueFrom?.secretKeyRef) {
      secrets[e.name] = `${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}`;
      values[e.name] = SECRET_PLACEHOLDER;
    } else if (e.valueFrom?.configMapKeyRef) {
      const data = configMaps.get(e.valueFrom.configMapKeyRef.name);
      values[e.name] = data?.[e.valueFrom.configMapKeyRef.key] ?? '';
    } else values[e.name] = e.value;
  }
  return { names, values, secrets };
}

const containersOf = (deployment: any): any[] => [
  ...(deployment.spec.template.spec.initContainers ?? []),
  ...deployment.spec.template.spec.containers,
];
const mainContainer = (deployment: any) =>
  deployment.spec.template.spec.containers.find((c: any) => c.name === 'app') ??
  deployment.spec.template.spec.containers[0];

/** A strategic-merge patch of Deployment containers, reduced to what these manifests use: env merged by name. */
function applyContainerPatch(deployment: any, patch: any): any {
  const out = structuredClone(deployment);
  for (const field of ['initContainers', 'containers']) {
    for (const pc of patch.spec?.template?.spec?.[field] ?? []) {
      const target = (out.spec.template.spec[field] ?? []).find((c: any) => c.name === pc.name);
      if (!target)
        throw new Error(`patch names ${field} "${pc.name}", which ${deployment.metadata.name} does not have`);
      for (const pe of pc.env ?? []) {
        const i = (target.env ?? []).findIndex((e: any) => e.name === pe.name);
        if (i >= 0)
          target.env[i] = {
            name: pe.name,
            ...(pe.value !== undefined ? { value: pe.value } : {}),
            ...(pe.valueFrom ? { valueFrom: pe.valueFrom } : {}),
          };
        else (target.env ??= []).push(pe);
      }
      if (pc.image) target.image = pc.image;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// docker-compose.yml
// ---------------------------------------------------------------------------------------------

/** Compose interpolation: ${X:-default} / ${X-default} -> default, ${X:?err} -> a placeholder, $$ -> $. */
function interpolate(value: unknown): string {
  return String(value).replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (match, name, op, arg) => {
    if (match === '$$') return '$';
    if (op?.endsWith('-')) return arg;
    if (op?.endsWith('?')) return SECRET_PLACEHOLDER;
    return '';
  });
}

const compose = parse(read(path.join(ROOT, 'docker-compose.yml')), { merge: true });

function composeEnv(service: any): Env {
  const env = service.environment;
  if (Array.isArray(env))
    return Object.fromEntries(env.map((e: string) => [e.split('=')[0], interpolate(e.slice(e.indexOf('=') + 1))]));
  return Object.fromEntries(Object.entries(env ?? {}).map(([k, v]) => [k, interpolate(v)]));
}

const healthPort = (test: unknown): number | undefined => {
  const text = Array.isArray(test) ? test.join(' ') : String(test);
  const m = /https?:\/\/(?:127\.0\.0\.1|localhost|0\.0\.0\.0):(\d+)\/health\b/.exec(text);
  return m ? Number(m[1]) : undefined;
};

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

describe('config classes (the source of truth the files are checked against)', () => {
  it('accepted variables are read from the class-validator metadata, app-specific ones included', () => {
    for (const name of SERVICE_NAMES) {
      for (const v of [
        'SERVICE_NAME',
        'PORT',
        'DB_SCHEMA',
        'DATABASE_URL',
        'KAFKA_BROKERS',
        'API_KEY_PUBLIC_KEY',
        'API_KEY_PRIVATE_KEY',
        'LOG_LEVEL',
      ])
        expect([name, v, ACCEPTED[name].has(v)]).toEqual([name, v, true]);
      expect([name, ACCEPTED[name].has('kafkaBrokers')]).toEqual([name, false]);
    }
    expect([...ACCEPTED.checks].filter((v) => v.startsWith('CHECKS_')).sort()).toEqual([
      'CHECKS_BATCH_CONCURRENCY',
      'CHECKS_BATCH_MAX_FILE_BYTES',
      'CHECKS_BATCH_MAX_ROWS',
      'CHECKS_BATCH_ROWS_PER_JOB',
      'CHECKS_BATCH_STORAGE',
      'CHECKS_COLLECTOR_CONCURRENCY_PER_DATABASE',
      'CHECKS_CREATE_GROUP_IN_FLIGHT',
      'CHECKS_CREDENTIALS_KEY',
      'CHECKS_DEDUP_WINDOW_SECONDS',
      'CHECKS_INLINE_COLLECT_MAX_MS',
      'CHECKS_S3_ACCESS_KEY_ID',
      'CHECKS_S3_BUCKET',
      'CHECKS_S3_ENDPOINT',
      'CHECKS_S3_FORCE_PATH_STYLE',
      'CHECKS_S3_REGION',
      'CHECKS_S3_SECRET_ACCESS_KEY',
      'CHECKS_SANDBOX_DATABASES',
      'CHECKS_SANDBOX_FAILURE_RATE',
      'CHECKS_SANDBOX_LATENCY_SCALE',
      'CHECKS_START_CONCURRENCY',
      'CHECKS_UPLOAD_SIGNING_KEY',
      'CHECKS_WORKER_CONCURRENCY',
      'CHECKS_WORKER_ENABLED',
      'CHECKS_WORKER_LOCK_MS',
    ]);
    expect([...ACCEPTED.account].filter((v) => v.startsWith('CHECKS_'))).toEqual([]);
  });

  it('required variables are the ones without defaults (the private key for identity only, the secrets key for account only)', () => {
    for (const name of SERVICE_NAMES) {
      const expected = [
        'API_KEY_PUBLIC_KEY',
        'DATABASE_URL',
        'KAFKA_BROKERS',
        ...(name === 'identity' ? ['API_KEY_PRIVATE_KEY'] : []),
        ...(name === 'account' ? ['ACCOUNT_SECRETS_KEY'] : []),
        ...(name === 'checks' ? ['CHECKS_CREDENTIALS_KEY'] : []),
        ...(name === 'engagement' ? ['ENGAGEMENT_CREDENTIALS_KEY'] : []),
        ...(name === 'pass' ? ['PASS_SECRETS_KEY'] : []),
      ].sort();
      expect([name, REQUIRED[name]]).toEqual([name, expected]);
    }
  });

  it("each app's default port and schema are the ones of libs/contracts/src/services.ts", () => {
    for (const name of SERVICE_NAMES) {
      const env = Object.fromEntries(REQUIRED[name].map((v) => [v, SECRET_PLACEHOLDER]));
      expectConfigLoads(name, env, `${name} defaults`);
    }
  });
});

describe('Dockerfile', () => {
  const text = read(path.join(ROOT, 'Dockerfile'));
  // Instructions with line continuations joined and comments dropped.
  const instructions = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [, op, rest] = /^(\S+)\s*(.*)$/.exec(l)!;
      return { op: op.toUpperCase(), args: rest };
    });
  const args = Object.fromEntries(
    instructions
      .filter((i) => i.op === 'ARG' && i.args.includes('='))
      .map((i) => i.args.split('=').map((s) => s.trim())),
  );
  const expand = (s: string) => s.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (m, v) => args[v] ?? m);
  const stages: { from: string; name?: string; instructions: { op: string; args: string }[] }[] = [];
  for (const i of instructions) {
    if (i.op === 'FROM') {
      const [from, , name] = expand(i.args)
        .replace(/--platform=\S+\s+/, '')
        .split(/\s+/);
      stages.push({ from, name, instructions: [] });
    } else stages.at(-1)?.instructions.push(i);
  }
  const runs = stages.flatMap((s) => s.instructions.filter((i) => i.op === 'RUN').map((i) => i.args));
  const final = stages.at(-1)!;

  it('is multi-stage on node:20-bookworm-slim', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const names = new Set(stages.map((s) => s.name).filter(Boolean));
    for (const s of stages) expect(names.has(s.from) || s.from === 'node:20-bookworm-slim').toBe(true);
    expect(final.from).toBe('node:20-bookworm-slim');
  });

  it('installs with npm ci, builds with tools/build.mjs and ships production dependencies only', () => {
    expect(runs.some((r) => /\bnpm ci\b/.test(r))).toBe(true);
    expect(runs.some((r) => /\bnode tools\/build\.mjs\b/.test(r))).toBe(true);
    expect(runs.some((r) => /\bnpm prune\b.*--omit=dev/.test(r))).toBe(true);
    // npm ci comes before the build, the prune after it.
    const at = (re: RegExp) => runs.findIndex((r) => re.test(r));
    expect(at(/\bnpm ci\b/)).toBeLessThan(at(/tools\/build\.mjs/));
    expect(at(/tools\/build\.mjs/)).toBeLessThan(at(/--omit=dev/));
    const copiesFromBuild = final.instructions
      .filter((i) => i.op === 'COPY' && /--from=/.test(i.args))
      .map((i) => i.args);
    expect(copiesFromBuild.some((c) => /\bnode_modules\b/.test(c))).toBe(true);
    expect(copiesFromBuild.some((c) => /\bdist\b/.test(c))).toBe(true);
  });

  it('runs as a non-root user and starts the service named by SERVICE_NAME', () => {
    const users = final.instructions.filter((i) => i.op === 'USER').map((i) => i.args.split(':')[0]);
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0']).not.toContain(users.at(-1));
    const cmd = final.instructions.filter((i) => i.op === 'CMD').at(-1);
    expect(cmd).toBeDefined();
    // With the Node flags every service process gets (the stack's, the test harness's).
    const flags = (JSON.parse(read(path.join(ROOT, 'tools/stack/service-node-flags.json'))) as string[]).join(' ');
    expect(cmd!.args).toContain(`node ${flags} dist/apps/$SERVICE_NAME/src/main.js`);
    for (const name of SERVICE_NAMES)
      expect(read(path.join(ROOT, 'apps', name, 'project.json'))).toContain(
        `node ${flags} dist/apps/${name}/src/main.js`,
      );
    // dist/apps/<svc>/src/main.js is what tools/build.mjs makes of apps/<svc>/src/main.ts.
    for (const name of SERVICE_NAMES) expect(existsSync(path.join(ROOT, 'apps', name, 'src', 'main.ts'))).toBe(true);
    expect(read(path.join(ROOT, 'tools/build.mjs'))).toMatch(/path\.join\(root, 'dist'\)/);
  });

  it('copies only files that exist and that .dockerignore lets into the build context', () => {
    const ignore = read(path.join(ROOT, '.dockerignore'))
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    for (const entry of ['node_modules', 'dist', '.stack', '.nx', 'coverage', '.git']) expect(ignore).toContain(entry);
    const ignored = (p: string) =>
      ignore.some((pattern) => {
        const re = new RegExp(
          `^${pattern
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*\*/g, '§§')
            .replace(/\*/g, '[^/]*')
            .replace(/§§/g, '.*')}(/.*)?$`,
        );
        return re.test(p);
      });
    const sources = instructions
      .filter((i) => i.op === 'COPY' && !/--from=/.test(i.args))
      .flatMap((i) => {
        const parts = i.args.split(/\s+/).filter((p) => !p.startsWith('--'));
        return parts.slice(0, -1);
      });
    expect(sources).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'apps', 'libs']));
    for (const src of sources) {
      expect([src, existsSync(path.join(ROOT, src))]).toEqual([src, true]);
      expect([src, ignored(src)]).toEqual([src, false]);
    }
    // Everything tools/build.mjs reads is copied: tsconfig.base.json for the path aliases.
    expect(sources).toEqual(expect.arrayContaining(['tsconfig.base.json', 'tools/build.mjs']));
  });
});

describe('docker-compose.yml', () => {
  const services = compose.services as Record<string, any>;
  const apps = SERVICE_NAMES.map((name) => [name, services[name]] as const);

  it('has postgres, kafka, kafka-init and the seven apps', () => {
    expect(Object.keys(services).sort()).toEqual(['kafka', 'kafka-init', 'postgres', ...SERVICE_NAMES].sort());
    expect(apps.filter(([, s]) => s).length).toBe(7);
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
    expect('API_KEY_PRIVATE_KEY' in env).toBe(name === 'identity');
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

describe('kustomize base', () => {
  const all = manifests(BASE);
  const of = (kind: string) => all.filter((m) => m.doc.kind === kind);
  const deployments = new Map<string, any>(of('Deployment').map((m) => [m.doc.metadata.name, m.doc]));
  const k8sServices = new Map<string, any>(of('Service').map((m) => [m.doc.metadata.name, m.doc]));
  const configMaps = new Map<string, Env>(of('ConfigMap').map((m) => [m.doc.metadata.name, m.doc.data ?? {}]));

  it('defines one Deployment and one Service per app, nothing for PostgreSQL or Kafka', () => {
    expect(of('Deployment')).toHaveLength(7);
    expect([...deployments.keys()].sort()).toEqual([...SERVICE_NAMES].sort());
    expect(of('Service')).toHaveLength(7);
    expect([...k8sServices.keys()].sort()).toEqual([...SERVICE_NAMES].sort());
    expect(all.filter((m) => ['StatefulSet', 'Secret'].includes(m.doc.kind))).toEqual([]);
  });

  it('the kustomization lists every manifest file of the base, and only existing ones', () => {
    const { refs } = kustomizationRefs(BASE);
    const files = yamlFiles(BASE).filter((f) => path.basename(f) !== 'kustomization.yaml');
    expect(files.length).toBeGreaterThanOrEqual(15);
    expect([...refs].sort()).toEqual(files);
  });

  it('ConfigMap values and env values are strings (Kubernetes rejects anything else)', () => {
    expect(configMaps.size).toBeGreaterThan(0);
    for (const [name, data] of configMaps)
      for (const [k, v] of Object.entries(data)) expect([name, k, typeof v]).toEqual([name, k, 'string']);
    for (const d of deployments.values())
      for (const c of containersOf(d))
        for (const e of c.env ?? [])
          if (!e.valueFrom)
            expect([d.metadata.name, e.name, typeof e.value]).toEqual([d.metadata.name, e.name, 'string']);
  });

  it('the shared ConfigMap holds KAFKA_BROKERS and LOG_LEVEL, with variables every app accepts', () => {
    const shared = configMaps.get('kyc-platform-config');
    expect(shared).toBeDefined();
    expect(Object.keys(shared!)).toEqual(expect.arrayContaining(['KAFKA_BROKERS', 'LOG_LEVEL']));
    expect(Object.keys(shared!).filter((k) => !ACCEPTED_BY_ALL.has(k))).toEqual([]);
    for (const d of deployments.values())
      for (const c of containersOf(d))
        expect((c.envFrom ?? []).map((f: any) => f.configMapRef?.name)).toContain('kyc-platform-config');
  });

  describe.each(SERVICE_NAMES)('%s', (name) => {
    const { port, schema } = SERVICES[name];
    const d = () => deployments.get(name);

    it('runs the shared image and listens on its port, probed on /health', () => {
      const app = mainContainer(d());
      expect(d().spec.template.spec.containers).toHaveLength(1);
      for (const c of containersOf(d())) expect([c.name, c.image]).toEqual([c.name, BASE_IMAGE]);
      expect(app.ports.map((p: any) => p.containerPort)).toEqual([port, METRICS_PORT]);
      expect(app.readinessProbe?.httpGet).toEqual({ path: '/health', port });
      expect(app.livenessProbe?.httpGet).toEqual({ path: '/health', port });
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'])
        if (app[probe]) expect([probe, app[probe].httpGet]).toEqual([probe, { path: '/health', port }]);
    });

    it('serves /metrics on a port of its own, which Prometheus scrapes and the Service does not expose', () => {
      expect(Number(configMaps.get('kyc-platform-config')!.METRICS_PORT)).toBe(METRICS_PORT);
      expect(d().spec.template.metadata.annotations['prometheus.io/port']).toBe(String(METRICS_PORT));
    });

    it('sets resource requests and limits on every container', () => {
      for (const c of containersOf(d())) {
        for (const kind of ['requests', 'limits'])
          for (const r of ['cpu', 'memory'])
            expect([c.name, kind, r, c.resources?.[kind]?.[r] != null]).toEqual([c.name, kind, r, true]);
      }
    });

    it('migrates its own schema in an init container before serving', () => {
      const inits = d().spec.template.spec.initContainers ?? [];
      expect(inits).toHaveLength(1);
      expect(inits[0].command ?? inits[0].args).toEqual(['node', `dist/apps/${name}/src/main.js`, 'migrate']);
      expect(inits[0].image).toBe(mainContainer(d()).image);
      expect(existsSync(path.join(ROOT, 'apps', name, 'src', 'main.ts'))).toBe(true);
    });

    it('gives every container only variables its config class accepts, the required ones included', () => {
      for (const c of containersOf(d())) {
        const env = resolveEnv(c, configMaps);
        const dup = env.names.filter(
          (n, i) => (c.env ?? []).some((e: any) => e.name === n) && env.names.indexOf(n) !== i,
        );
        expect([c.name, dup]).toEqual([c.name, []]);
        expect([c.name, env.names.filter((v) => !ACCEPTED[name].has(v))]).toEqual([c.name, []]);
        for (const v of REQUIRED[name]) expect([c.name, v, env.names.includes(v)]).toEqual([c.name, v, true]);
        expect([c.name, env.values.SERVICE_NAME, env.values.PORT, env.values.DB_SCHEMA]).toEqual([
          c.name,
          name,
          String(port),
          schema,
        ]);
        // Secrets come from Secrets; the private key is identity's alone.
        for (const v of [
          'DATABASE_URL',
          'API_KEY_PUBLIC_KEY',
          ...(name === 'identity' ? ['API_KEY_PRIVATE_KEY'] : []),
          ...(name === 'account' ? ['ACCOUNT_SECRETS_KEY'] : []),
          ...(name === 'checks' ? ['CHECKS_CREDENTIALS_KEY'] : []),
          ...(name === 'engagement' ? ['ENGAGEMENT_CREDENTIALS_KEY'] : []),
          ...(name === 'pass' ? ['PASS_SECRETS_KEY'] : []),
        ])
          expect([c.name, v, env.secrets[v] ? 'secret' : 'not a secret']).toEqual([c.name, v, 'secret']);
        expect([c.name, env.names.includes('API_KEY_PRIVATE_KEY')]).toEqual([c.name, name === 'identity']);
        expectConfigLoads(name, env.values, `base ${name}/${c.name}`);
      }
    });

    it('is exposed by a Service on its port that selects its pods', () => {
      const svc = k8sServices.get(name);
      expect(svc.spec.ports.map((p: any) => [p.port, p.targetPort])).toEqual([[port, port]]);
      const labels = d().spec.template.metadata.labels;
      expect(Object.keys(svc.spec.selector).length).toBeGreaterThan(0);
      for (const [k, v] of Object.entries(svc.spec.selector)) expect([k, labels[k]]).toEqual([k, v]);
      for (const [k, v] of Object.entries(d().spec.selector.matchLabels)) expect([k, labels[k]]).toEqual([k, v]);
      // No other Deployment's pods match.
      for (const other of deployments.values())
        if (other.metadata.name !== name)
          expect(
            Object.entries(svc.spec.selector).every(([k, v]) => other.spec.template.metadata.labels[k] === v),
          ).toBe(false);
    });
  });

  it('gives the checks service its CHECKS_* settings', () => {
    const env = resolveEnv(mainContainer(deployments.get('checks')), configMaps);
    expect(env.names.filter((n) => n.startsWith('CHECKS_')).sort()).toEqual(
      [...ACCEPTED.checks].filter((v) => v.startsWith('CHECKS_')).sort(),
    );
  });
});

describe('kustomize overlays', () => {
  const baseDeployments = new Map<string, any>(
    manifests(BASE)
      .filter((m) => m.doc.kind === 'Deployment')
      .map((m) => [m.doc.metadata.name, m.doc]),
  );
  const baseConfigMaps = new Map<string, Env>(
    manifests(BASE)
      .filter((m) => m.doc.kind === 'ConfigMap')
      .map((m) => [m.doc.metadata.name, m.doc.data ?? {}]),
  );
  const overlayDirs = readdirSync(OVERLAYS)
    .map((d) => path.join(OVERLAYS, d))
    .filter((d) => statSync(d).isDirectory());

  it('production exists, and every overlay kustomization lists every file of its folder, and only existing ones', () => {
    expect(overlayDirs).toContain(PRODUCTION);
    for (const dir of overlayDirs) {
      const { refs } = kustomizationRefs(dir);
      for (const r of refs) expect([rel(r), existsSync(r)]).toEqual([rel(r), true]);
      for (const r of refs.filter((x) => statSync(x).isDirectory()))
        expect([rel(r), existsSync(path.join(r, 'kustomization.yaml'))]).toEqual([rel(r), true]);
      expect(refs).toContain(BASE);
      const files = yamlFiles(dir).filter((f) => path.basename(f) !== 'kustomization.yaml');
      expect(files.filter((f) => !refs.includes(f)).map(rel)).toEqual([]);
    }
  });

  /** The production overlay applied to the base Deployments and ConfigMaps (the parts the apps' environment depends on). */
  function renderProduction() {
    const { kustomization } = kustomizationRefs(PRODUCTION);
    const configMaps = new Map([...baseConfigMaps].map(([k, v]) => [k, { ...v }]));
    let deployments = new Map([...baseDeployments].map(([k, v]) => [k, structuredClone(v)]));
    const patchedDeployments: string[] = [];
    for (const p of kustomization.patches ?? []) {
      const patch = readDocs(path.join(PRODUCTION, p.path))[0];
      const kind = p.target?.kind ?? patch.kind;
      if (kind === 'ConfigMap') {
        const name = p.target?.name ?? patch.metadata.name;
        expect([p.path, configMaps.has(name)]).toEqual([p.path, true]);
        Object.assign(configMaps.get(name)!, patch.data ?? {});
      } else if (kind === 'Deployment') {
        const targets = p.target
          ? [...deployments.keys()].filter((n) => !p.target.name || new RegExp(`^(?:${p.target.name})$`).test(n))
          : [patch.metadata.name];
        expect([p.path, targets.length > 0 && targets.every((t) => deployments.has(t))]).toEqual([p.path, true]);
        deployments = new Map(
          [...deployments].map(([n, d]) => [n, targets.includes(n) ? applyContainerPatch(d, patch) : d]),
        );
        patchedDeployments.push(...targets);
      } else throw new Error(`${p.path}: unexpected patch of ${kind}`);
    }
    const image = (kustomization.images ?? []).find((i: any) => i.name === BASE_IMAGE);
    return { kustomization, configMaps, deployments, patchedDeployments, image };
  }

  it('production sets the image, replicas, KAFKA_BROKERS and the Secret names', () => {
    const { kustomization, configMaps, deployments, image } = renderProduction();
    expect(image?.newName).toBeTruthy();
    expect(image?.newTag).toBeTruthy();
    expect(image.newTag).not.toBe('latest');
    expect((kustomization.replicas ?? []).map((r: any) => r.name).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const r of kustomization.replicas) expect(r.count).toBeGreaterThanOrEqual(1);
    expect(configMaps.get('kyc-platform-config')!.KAFKA_BROKERS).not.toBe(
      baseConfigMaps.get('kyc-platform-config')!.KAFKA_BROKERS,
    );
    // Every secret a production container reads is named by the overlay, not left at the base's name.
    const baseSecretNames = new Set(
      [...baseDeployments.values()].flatMap((d) =>
        containersOf(d).flatMap((c) =>
          Object.values(resolveEnv(c, baseConfigMaps).secrets).map((s) => s.split('/')[0]),
        ),
      ),
    );
    expect(deployments.size).toBe(7);
    for (const [name, d] of deployments) {
      for (const c of containersOf(d)) {
        const secrets = resolveEnv(c, configMaps).secrets;
        expect(Object.keys(secrets).length).toBeGreaterThan(0);
        for (const [v, ref] of Object.entries(secrets))
          expect([name, c.name, v, baseSecretNames.has(ref.split('/')[0])]).toEqual([name, c.name, v, false]);
      }
    }
  });

  it.each(SERVICE_NAMES)(
    'production %s: every container gets an environment its config class accepts and loads',
    (name) => {
      const { deployments, configMaps } = renderProduction();
      const d = deployments.get(name);
      expect(containersOf(d)).toHaveLength(2);
      for (const c of containersOf(d)) {
        const env = resolveEnv(c, configMaps);
        expect([c.name, env.names.filter((v) => !ACCEPTED[name].has(v))]).toEqual([c.name, []]);
        for (const v of REQUIRED[name]) expect([c.name, v, env.names.includes(v)]).toEqual([c.name, v, true]);
        expect([c.name, env.names.includes('API_KEY_PRIVATE_KEY')]).toEqual([c.name, name === 'identity']);
        expectConfigLoads(name, env.values, `production ${name}/${c.name}`);
      }
      for (const cmName of (mainContainer(d).envFrom ?? []).map((f: any) => f.configMapRef.name))
        expect(Object.keys(configMaps.get(cmName)!).filter((v) => !ACCEPTED[name].has(v))).toEqual([]);
    },
  );

  // When kubectl is installed, the real kustomize output must agree with the checks above.
  const kubectl = (() => {
    try {
      execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore', timeout: 20_000 });
      return true;
    } catch {
      return false;
    }
  })();
  (kubectl ? it : it.skip)('kubectl kustomize renders production consistently with these checks', () => {
    const out = execFileSync('kubectl', ['kustomize', PRODUCTION], { encoding: 'utf8', timeout: 60_000 });
    const docs = Array.from(parseAllDocuments(out) as Iterable<any>).map((x) => x.toJS());
    const rendered = docs.filter((x) => x?.kind === 'Deployment');
    expect(rendered).toHaveLength(7);
    const configMaps = new Map<string, Env>(
      docs.filter((x) => x?.kind === 'ConfigMap').map((x) => [x.metadata.name, x.data ?? {}]),
    );
    const expected = renderProduction();
    for (const d of rendered) {
      const name = d.metadata.name as ServiceName;
      expect(SERVICE_NAMES).toContain(name);
      expect(d.spec.replicas).toBe(expected.kustomization.replicas.find((r: any) => r.name === name).count);
      for (const c of containersOf(d)) {
        expect(c.image).toBe(`${expected.image.newName}:${expected.image.newTag}`);
        const got = resolveEnv(c, configMaps);
        const want = resolveEnv(
          containersOf(expected.deployments.get(name)).find((x: any) => x.name === c.name),
          expected.configMaps,
        );
        expect([name, c.name, got.values, got.secrets]).toEqual([name, c.name, want.values, want.secrets]);
      }
    }
  });
});
