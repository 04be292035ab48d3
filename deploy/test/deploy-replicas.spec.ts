/**
 * Deployment files kept consistent with the code (see deploy-fixture.ts): what replicas must
 * share (shared secrets from Secrets), the calls between services (every URL setting set, each
 * call allowed by the NetworkPolicies both ways) and what scaling out needs (partitions for the
 * autoscalers' maxima, spread, ephemeral storage).
 */
import path from 'node:path';

import {
  ACCEPTED,
  applyContainerPatch,
  APPS,
  BASE,
  compose,
  composeEnv,
  containersOf,
  Env,
  loadFrom,
  mainContainer,
  manifests,
  OVERLAYS,
  PRODUCTION,
  readDocs,
  renderOverlay,
  REQUIRED,
  resolveEnv,
  SECRET_PLACEHOLDER,
  selects,
  SERVICE_NAMES,
  ServiceName,
  SERVICES,
} from './deploy-fixture';

const base = manifests(BASE);
const baseDeployments = new Map<string, any>(
  base.filter((m) => m.doc.kind === 'Deployment').map((m) => [m.doc.metadata.name, m.doc]),
);
const baseConfigMaps = new Map<string, Env>(
  base.filter((m) => m.doc.kind === 'ConfigMap').map((m) => [m.doc.metadata.name, m.doc.data ?? {}]),
);
const production = renderOverlay(PRODUCTION);
const policies = base.filter((m) => m.doc.kind === 'NetworkPolicy').map((m) => m.doc);

/** The settings every replica of a service must share (its config class's SHARED_SECRETS). */
const sharedSecrets = (name: ServiceName): string[] => [
  ...((APPS[name].cls as unknown as { SHARED_SECRETS?: string[] }).SHARED_SECRETS ?? []),
];

/** Names that hold credentials: they come from Secrets, never from a ConfigMap or a literal. */
const CREDENTIAL = /(SECRET|PASSWORD|PRIVATE_KEY|_KEY$|SMTP_URL$|DATABASE_URL$)/;

/**
 * The service URLs a config names: every *_URL setting (not PUBLIC_URL nor the database's) whose default is unset
 * or points at this machine, so that a deployment that does not set it calls nothing or itself.
 */
function urlSettings(name: ServiceName): string[] {
  const env = Object.fromEntries(REQUIRED[name].map((v) => [v, SECRET_PLACEHOLDER]));
  const config = loadFrom(name, env).config as unknown as Record<string, unknown>;
  return [...ACCEPTED[name]]
    .filter((k) => /^[A-Z][A-Z0-9_]*_URL$/.test(k) && k !== 'PUBLIC_URL' && !k.startsWith('DATABASE_'))
    .filter((k) => {
      const v = config[k];
      return v === undefined || (typeof v === 'string' && /\/\/(localhost|127\.0\.0\.1)\b/.test(v));
    })
    .sort();
}

/** URL settings the environment leaves unset. */
const unsetUrls = (name: ServiceName, names: string[]) => urlSettings(name).filter((u) => !names.includes(u));

const matches = (selector: any, labels: Record<string, string>) =>
  selects(selector.matchLabels ?? {}, labels) &&
  (selector.matchExpressions ?? []).every((e: any) => (e.operator === 'In' ? e.values.includes(labels[e.key]) : false));
const podLabels = (name: string) => baseDeployments.get(name).spec.template.metadata.labels as Record<string, string>;

/**
 * Calls the NetworkPolicies do not allow: `from` calling a platform pod `to` on `port` needs an
 * Egress rule of a policy selecting `from` towards `to`, and an Ingress rule of one selecting `to`
 * from `from`; an SMTP server needs Egress to public addresses on its port.
 */
function blockedCalls(all: any[], calls: { from: string; to: string; port: number }[]): string[] {
  const rules = (labels: Record<string, string>, type: 'Ingress' | 'Egress') =>
    all
      .filter((p) => p.spec.policyTypes.includes(type) && matches(p.spec.podSelector, labels))
      .flatMap((p) => (type === 'Ingress' ? p.spec.ingress : p.spec.egress) ?? []);
  const onPort = (r: any, port: number) => !r.ports || r.ports.some((p: any) => p.port === port);
  const blocked: string[] = [];
  for (const { from, to, port } of calls) {
    const out = rules(podLabels(from), 'Egress').filter((r) => onPort(r, port));
    if (to === 'smtp') {
      if (!out.some((r) => r.to.some((t: any) => t.ipBlock?.cidr === '0.0.0.0/0')))
        blocked.push(`${from} -> SMTP:${port}`);
      continue;
    }
    if (!out.some((r) => r.to.some((t: any) => t.podSelector && matches(t.podSelector, podLabels(to)))))
      blocked.push(`${from} -> ${to}:${port} (egress)`);
    const inbound = rules(podLabels(to), 'Ingress').filter((r) => onPort(r, port));
    if (!inbound.some((r) => r.from.some((f: any) => f.podSelector && matches(f.podSelector, podLabels(from)))))
      blocked.push(`${from} -> ${to}:${port} (ingress)`);
  }
  return blocked;
}

/** The calls a service's environment makes to other platform services (http://<service>:<port>) and SMTP servers. */
function callsOf(name: ServiceName, values: Env): { from: string; to: string; port: number }[] {
  const calls: { from: string; to: string; port: number }[] = [];
  for (const setting of urlSettings(name)) {
    const value = values[setting];
    if (!value) continue;
    if (/_SMTP_URL$/.test(setting)) {
      calls.push({ from: name, to: 'smtp', port: 465 }, { from: name, to: 'smtp', port: 587 });
      continue;
    }
    const url = new URL(value);
    const target = SERVICE_NAMES.find((s) => s === url.hostname);
    expect([name, setting, target]).toEqual([name, setting, expect.any(String)]);
    expect([name, setting, Number(url.port)]).toEqual([name, setting, SERVICES[target!].port]);
    calls.push({ from: name, to: target!, port: Number(url.port) });
  }
  return calls;
}

describe('settings every replica shares', () => {
  const withShared = SERVICE_NAMES.filter((n) => sharedSecrets(n).length > 0);

  it('validations names VALIDATIONS_SECRET_KEY a shared secret: in production it refuses to start without it', () => {
    expect(sharedSecrets('validations')).toEqual(['VALIDATIONS_SECRET_KEY']);
    const env = Object.fromEntries(REQUIRED.validations.map((v) => [v, SECRET_PLACEHOLDER]));
    expect(loadFrom('validations', { ...env, NODE_ENV: 'production' }).error).toMatch(
      /VALIDATIONS_SECRET_KEY: required with NODE_ENV=production/,
    );
  });

  it.each(withShared)(
    '%s: each shared secret comes from a Secret in base and production, and the image (NODE_ENV=production) loads',
    (name) => {
      for (const [where, deployment, configMaps] of [
        ['base', baseDeployments.get(name), baseConfigMaps],
        ['production', production.deployments.get(name), production.configMaps],
      ] as const)
        for (const c of containersOf(deployment)) {
          const env = resolveEnv(c, configMaps);
          for (const s of sharedSecrets(name))
            expect([where, c.name, s, env.secrets[s]]).toEqual([where, c.name, s, expect.any(String)]);
          // The Dockerfile sets NODE_ENV=production.
          expect([where, c.name, loadFrom(name, { ...env.values, NODE_ENV: 'production' }).error]).toEqual([
            where,
            c.name,
            undefined,
          ]);
        }
    },
  );

  it.each(withShared)('%s: docker-compose.yml requires each shared secret from the environment', (name) => {
    const raw = compose.services[name].environment;
    for (const s of sharedSecrets(name)) expect([s, String(raw[s])]).toEqual([s, expect.stringMatching(/^\$\{\w+:\?/)]);
    expect(loadFrom(name, { ...composeEnv(compose.services[name]), NODE_ENV: 'production' }).error).toBeUndefined();
  });

  it('the check can fail: a Deployment without the shared secret does not load in production', () => {
    const c = structuredClone(mainContainer(production.deployments.get('validations')));
    c.env = c.env.filter((e: any) => e.name !== 'VALIDATIONS_SECRET_KEY');
    const env = resolveEnv(c, production.configMaps);
    expect(loadFrom('validations', { ...env.values, NODE_ENV: 'production' }).error).toMatch(/VALIDATIONS_SECRET_KEY/);
  });

  it.each(SERVICE_NAMES)(
    '%s: every credential comes from a Secret (Kubernetes) or the environment (compose)',
    (name) => {
      for (const deployment of [baseDeployments.get(name), production.deployments.get(name)])
        for (const c of containersOf(deployment)) {
          const env = resolveEnv(c, production.configMaps);
          for (const v of env.names.filter((n) => CREDENTIAL.test(n)))
            expect([c.name, v, env.secrets[v]]).toEqual([c.name, v, expect.any(String)]);
        }
      for (const cm of [...baseConfigMaps.values(), ...production.configMaps.values()])
        expect(Object.keys(cm).filter((k) => CREDENTIAL.test(k) || /^KAFKA_SASL_(USERNAME|PASSWORD)$/.test(k))).toEqual(
          [],
        );
      const raw = compose.services[name].environment as Record<string, unknown>;
      for (const [k, v] of Object.entries(raw).filter(
        ([k]) => CREDENTIAL.test(k) && !/SMTP_URL$|DATABASE_URL$/.test(k),
      ))
        expect([k, String(v)]).toEqual([k, expect.stringMatching(/^\$\{\w+:\?/)]);
    },
  );
});

describe('calls between services', () => {
  it('identity names its calls: validations, engagement, pass and SMTP (the check finds URL settings)', () => {
    expect(urlSettings('identity')).toEqual([
      'IDENTITY_ENGAGEMENT_URL',
      'IDENTITY_PASS_URL',
      'IDENTITY_SMTP_URL',
      'IDENTITY_VALIDATIONS_URL',
    ]);
  });

  it.each(SERVICE_NAMES)('%s: every URL setting is set in base, production and docker-compose.yml', (name) => {
    expect([
      'base',
      unsetUrls(name, resolveEnv(mainContainer(baseDeployments.get(name)), baseConfigMaps).names),
    ]).toEqual(['base', []]);
    const prod = resolveEnv(mainContainer(production.deployments.get(name)), production.configMaps);
    expect(['production', unsetUrls(name, prod.names)]).toEqual(['production', []]);
    expect(['compose', unsetUrls(name, Object.keys(composeEnv(compose.services[name])))]).toEqual(['compose', []]);
    // Compose points the calls at the compose services.
    for (const [k, v] of Object.entries(composeEnv(compose.services[name])))
      if (urlSettings(name).includes(k) && !/SMTP_URL$/.test(k))
        expect([k, new URL(v).hostname in compose.services]).toEqual([k, true]);
  });

  it.each(SERVICE_NAMES)('%s: the NetworkPolicies allow each of its calls both ways', (name) => {
    const env = resolveEnv(mainContainer(baseDeployments.get(name)), baseConfigMaps);
    const values = { ...env.values };
    for (const s of Object.keys(env.secrets)) values[s] ??= 'smtps://placeholder@smtp.example.com:465';
    expect(blockedCalls(policies, callsOf(name, values))).toEqual([]);
  });

  it('the checks can fail: an unset URL and a missing policy path are reported', () => {
    const identity = resolveEnv(mainContainer(baseDeployments.get('identity')), baseConfigMaps);
    expect(
      unsetUrls(
        'identity',
        identity.names.filter((n) => n !== 'IDENTITY_PASS_URL'),
      ),
    ).toEqual(['IDENTITY_PASS_URL']);
    const calls = callsOf('identity', identity.values);
    expect(calls.map((c) => c.to)).toEqual(expect.arrayContaining(['validations', 'engagement', 'pass']));
    const without = policies.filter((p) => p.metadata.name !== 'engagement-from-identity');
    expect(blockedCalls(without, calls)).toEqual(['identity -> engagement:4004 (ingress)']);
  });
});

describe('PgBouncer (overlays/production-pgbouncer)', () => {
  const dir = path.join(OVERLAYS, 'production-pgbouncer');
  const objects = manifests(dir);
  const ini = objects.find((m) => m.doc.kind === 'ConfigMap')!.doc.data['pgbouncer.ini'] as string;

  it('runs in transaction mode with an alias per service schema that sets its search_path', () => {
    expect(ini).toMatch(/^\s*pool_mode = transaction$/m);
    for (const name of SERVICE_NAMES) {
      const schema = SERVICES[name].schema;
      expect(ini).toMatch(
        new RegExp(
          `^\\s*kyc_${schema} = host=\\S+ dbname=\\S+ connect_query='SET search_path TO ${schema}, public'$`,
          'm',
        ),
      );
    }
  });

  it.each(SERVICE_NAMES)('%s: serves through its alias, migrates on PostgreSQL itself, and loads', (name) => {
    const patch = readDocs(path.join(dir, 'pooled-database.patch.yaml')).find((d) => d.metadata.name === name);
    const deployment = applyContainerPatch(production.deployments.get(name), patch);
    const app = resolveEnv(mainContainer(deployment), production.configMaps);
    expect(app.secrets.DATABASE_URL).toBe(`kyc-production-database-pooled/${name}`);
    expect(app.secrets.DATABASE_DIRECT_URL).toBe('kyc-production-database/DATABASE_URL');
    expect(app.values.DB_TRANSACTION_POOLER).toBe('true');
    const migrate = resolveEnv(deployment.spec.template.spec.initContainers[0], production.configMaps);
    expect(migrate.secrets.DATABASE_URL).toBe('kyc-production-database/DATABASE_URL');
    expect(loadFrom(name, { ...app.values, NODE_ENV: 'production' }).error).toBeUndefined();
  });

  it('the NetworkPolicies let the services reach PgBouncer and PgBouncer reach PostgreSQL', () => {
    const names = objects.filter((m) => m.doc.kind === 'NetworkPolicy').map((m) => m.doc.metadata.name);
    expect(names.sort()).toEqual([
      'kyc-pgbouncer-from-services',
      'kyc-pgbouncer-to-postgres',
      'kyc-services-to-pgbouncer',
    ]);
  });
});

describe('scaling out', () => {
  const hpaMax = Math.max(
    ...base.filter((m) => m.doc.kind === 'HorizontalPodAutoscaler').map((m) => m.doc.spec.maxReplicas),
    ...[...production.hpas.values()].map((h) => h.spec.maxReplicas),
  );

  it('event topics get at least as many partitions as the largest autoscaler maximum', () => {
    const job = base.find((m) => m.doc.kind === 'Job' && m.doc.metadata.name === 'kafka-topics')!.doc;
    const env = job.spec.template.spec.containers[0].env;
    const partitions = Number(env.find((e: any) => e.name === 'EVENT_PARTITIONS').value);
    expect(partitions).toBeGreaterThanOrEqual(hpaMax);
  });

  it.each(SERVICE_NAMES)('%s: no static replicas; spread over zones and nodes; ephemeral storage bounded', (name) => {
    const d = baseDeployments.get(name);
    expect(d.spec.replicas).toBeUndefined();
    const spec = d.spec.template.spec;
    expect(spec.topologySpreadConstraints.map((t: any) => t.topologyKey).sort()).toEqual([
      'kubernetes.io/hostname',
      'topology.kubernetes.io/zone',
    ]);
    for (const t of spec.topologySpreadConstraints)
      expect(t.labelSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': name });
    const anti = spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm;
    expect(anti.labelSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': name });
    for (const v of spec.volumes.filter((x: any) => x.emptyDir))
      expect([v.name, v.emptyDir.sizeLimit]).toEqual([v.name, expect.stringMatching(/^\d+(Mi|Gi)$/)]);
  });
});
