/**
 * Keeps the deployment files consistent with the code. Nothing here starts a container (there is
 * no Docker engine or cluster in CI): the Dockerfile, docker-compose.yml and the kustomize
 * manifests under deploy/ are parsed and checked against libs/contracts (ports, schemas, topics)
 * and against each app's config class (the variables it accepts and the ones it requires).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { SERVICES as PLATFORM_SERVICES } from '@kyc/contracts';
import type { PlatformConfig } from '@kyc/platform';
import { getMetadataStorage } from 'class-validator';
import { parse, parseAllDocuments } from 'yaml';

/** What deploy/, docker-compose.yml and the image run: the seven services and the operator console (apps/console). */
export const SERVICES = { ...PLATFORM_SERVICES, console: { port: 4000, schema: 'console' } } as const;
export type ServiceName = keyof typeof SERVICES;
export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];
export type Env = Record<string, string>;
export type Loader = (env: NodeJS.ProcessEnv) => PlatformConfig;
export type ConfigClass = new () => PlatformConfig;

export const ROOT = path.resolve(__dirname, '../..');
export const DEPLOY = path.join(ROOT, 'deploy');
export const BASE = path.join(DEPLOY, 'base');
export const OVERLAYS = path.join(DEPLOY, 'overlays');
export const PRODUCTION = path.join(OVERLAYS, 'production');

/** The image every Deployment of the base uses; overlays rewrite it with `images:`. */
export const BASE_IMAGE = 'kyc-platform';
export const SECRET_PLACEHOLDER = 'placeholder-secret-value';
/** A value read from a Secret, as the process would see one: an SMTP URL for *_SMTP_URL, else a string. */
export const secretPlaceholder = (name: string) =>
  /_SMTP_URL$/.test(name) ? 'smtps://user:placeholder@smtp.example.com:465' : SECRET_PLACEHOLDER;
/** /metrics has a port of its own in the cluster (METRICS_PORT); the Service exposes only the service port. */
export const METRICS_PORT = 9464;

/**
 * A service's env class and loader, found by name as the stack finds a service
 * (apps/<name>/src/config/<name>.config.ts exports <Name>Config and load<Name>Config): the deploy
 * checks read every app's configuration without importing app code.
 */
export function appConfig(name: ServiceName): { cls: ConfigClass; load: Loader } {
  const title = name[0].toUpperCase() + name.slice(1);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by name at run time (see above)
  const loaded = require(path.join(ROOT, 'apps', name, 'src/config', `${name}.config`)) as Record<string, unknown>;
  const cls = loaded[`${title}Config`];
  const load = loaded[`load${title}Config`];
  if (typeof cls !== 'function' || typeof load !== 'function')
    throw new Error(`apps/${name}/src/config/${name}.config.ts exports no ${title}Config and load${title}Config`);
  return { cls: cls as ConfigClass, load: load as Loader };
}

export const APPS = Object.fromEntries(SERVICE_NAMES.map((name) => [name, appConfig(name)])) as Record<
  ServiceName,
  { cls: ConfigClass; load: Loader }
>;

/** The operator commands (`main.js admin <name>`) each service defines, read from its ServiceDefinition. */
export function adminCommandsOf(name: ServiceName): Record<string, unknown> {
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
export function adminInvocations(script: string): { service: ServiceName; command: string; env: Env }[] {
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
export const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

// ---------------------------------------------------------------------------------------------
// What the config classes accept and require
// ---------------------------------------------------------------------------------------------

/** Every property of the config class (own and inherited) that carries a class-validator decorator. */
export function acceptedVariables(cls: ConfigClass): Set<string> {
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
export function requiredVariables(load: Loader): string[] {
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

export const ACCEPTED = Object.fromEntries(SERVICE_NAMES.map((n) => [n, acceptedVariables(APPS[n].cls)])) as Record<
  ServiceName,
  Set<string>
>;
export const REQUIRED = Object.fromEntries(SERVICE_NAMES.map((n) => [n, requiredVariables(APPS[n].load)])) as Record<
  ServiceName,
  string[]
>;
export const ACCEPTED_BY_ALL = new Set(
  [...ACCEPTED.checks].filter((v) => SERVICE_NAMES.every((n) => ACCEPTED[n].has(v))),
);
export const ADMIN_COMMANDS = { account: adminCommandsOf('account'), identity: adminCommandsOf('identity') } as Record<
  ServiceName,
  Record<string, unknown>
>;

/** Loads the app's config from an environment as a container would see it; returns the error text or the config. */
export function loadFrom(name: ServiceName, env: Env): { config?: PlatformConfig; error?: string } {
  try {
    return { config: APPS[name].load(env) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

export function expectConfigLoads(name: ServiceName, env: Env, where: string) {
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

export const read = (file: string) => readFileSync(file, 'utf8');
export const rel = (file: string) => path.relative(ROOT, file);

export function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...yamlFiles(full));
    else if (/\.ya?ml$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

/** The YAML files of a kustomization's folder, without those of sub-folders that are kustomizations of their own. */
export function ownYamlFiles(dir: string): string[] {
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
export function kustomizationDirs(dir = DEPLOY): string[] {
  const out = existsSync(path.join(dir, 'kustomization.yaml')) ? [dir] : [];
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory() && entry.name !== 'test') out.push(...kustomizationDirs(path.join(dir, entry.name)));
  return out.sort();
}

/** All documents of a (multi-document) YAML file; a syntax error fails the test. */
export function readDocs(file: string): any[] {
  const docs = Array.from(parseAllDocuments(read(file)) as Iterable<any>);
  for (const d of docs)
    if (d.errors?.length) throw new Error(`${rel(file)}: ${d.errors.map((e: Error) => e.message).join('; ')}`);
  return docs.map((d) => d.toJS()).filter((d) => d != null);
}

export interface Manifest {
  file: string;
  doc: any;
}

export function manifests(dir: string): Manifest[] {
  return yamlFiles(dir)
    .filter((f) => path.basename(f) !== 'kustomization.yaml')
    .flatMap((file) => readDocs(file).map((doc) => ({ file, doc })));
}

/** Everything a kustomization.yaml points at, as absolute paths. */
export function kustomizationRefs(dir: string): { kustomization: any; refs: string[] } {
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

export interface ResolvedEnv {
  /** Every variable name the container gets (ConfigMap keys through envFrom, then env). */
  names: string[];
  /** Values as the process would see them (secrets replaced by a placeholder). */
  values: Env;
  /** Variables read from Secrets: name -> "secret/key". */
  secrets: Record<string, string>;
}

export function resolveEnv(container: any, configMaps: Map<string, Env>): ResolvedEnv {
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
      // An optional key of an optional Secret may be absent: the variable is then unset.
      if (!e.valueFrom.secretKeyRef.optional) values[e.name] = secretPlaceholder(e.name);
    } else if (e.valueFrom?.configMapKeyRef) {
      const data = configMaps.get(e.valueFrom.configMapKeyRef.name);
      values[e.name] = data?.[e.valueFrom.configMapKeyRef.key] ?? '';
    } else values[e.name] = e.value;
  }
  return { names, values, secrets };
}

export const containersOf = (deployment: any): any[] => [
  ...(deployment.spec.template.spec.initContainers ?? []),
  ...deployment.spec.template.spec.containers,
];
export const mainContainer = (deployment: any) =>
  deployment.spec.template.spec.containers.find((c: any) => c.name === 'app') ??
  deployment.spec.template.spec.containers[0];

/** A strategic-merge patch of Deployment containers, reduced to what these manifests use: env merged by name. */
export function applyContainerPatch(deployment: any, patch: any): any {
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
export function interpolate(value: unknown): string {
  return String(value).replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (match, name, op, arg) => {
    if (match === '$$') return '$';
    if (op?.endsWith('-')) return arg;
    if (op?.endsWith('?')) return SECRET_PLACEHOLDER;
    return '';
  });
}

export const compose = parse(read(path.join(ROOT, 'docker-compose.yml')), { merge: true });

export function composeEnv(service: any): Env {
  const env = service.environment;
  if (Array.isArray(env))
    return Object.fromEntries(env.map((e: string) => [e.split('=')[0], interpolate(e.slice(e.indexOf('=') + 1))]));
  return Object.fromEntries(Object.entries(env ?? {}).map(([k, v]) => [k, interpolate(v)]));
}

/** The port of a compose healthcheck probing readiness (/readyz: dependencies usable, access cache caught up). */
export const healthPort = (test: unknown): number | undefined => {
  const text = Array.isArray(test) ? test.join(' ') : String(test);
  const m = /https?:\/\/(?:127\.0\.0\.1|localhost|0\.0\.0\.0):(\d+)\/readyz\b/.exec(text);
  return m ? Number(m[1]) : undefined;
};

/** The production overlay applied to the base Deployments and ConfigMaps (the parts the apps' environment depends on). */
export function renderOverlay(dir: string) {
  const base = manifests(BASE);
  const baseDeployments = new Map<string, any>(
    base.filter((m) => m.doc.kind === 'Deployment').map((m) => [m.doc.metadata.name, m.doc]),
  );
  const baseConfigMaps = new Map<string, Env>(
    base.filter((m) => m.doc.kind === 'ConfigMap').map((m) => [m.doc.metadata.name, m.doc.data ?? {}]),
  );
  const { kustomization } = kustomizationRefs(dir);
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
    readDocs(path.join(dir, p.path)).map((patch) => ({ p, patch })),
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

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------
