/** Deployment files kept consistent with the code (see deploy-fixture.ts): kustomize overlays. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import { parseAllDocuments } from 'yaml';

import {
  ACCEPTED,
  BASE,
  containersOf,
  Env,
  expectConfigLoads,
  kustomizationRefs,
  mainContainer,
  manifests,
  OVERLAYS,
  ownYamlFiles,
  PRODUCTION,
  readDocs,
  rel,
  renderOverlay,
  REQUIRED,
  resolveEnv,
  selects,
  SERVICE_NAMES,
  ServiceName,
  SERVICES,
} from './deploy-fixture';

describe('kustomize overlays', () => {
  const renderProduction = () => renderOverlay(PRODUCTION);
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
      // The base, or another overlay built on it (production-pgbouncer on production).
      expect(refs.some((r) => r === BASE || overlayDirs.includes(r))).toBe(true);
      const files = ownYamlFiles(dir);
      expect(files.filter((f) => !refs.includes(f)).map(rel)).toEqual([]);
    }
  });

  it('production sets the image, KAFKA_BROKERS and the Secret names; no static replicas (the autoscalers own them)', () => {
    const { kustomization, configMaps, deployments, image } = renderProduction();
    expect(image?.newName).toBeTruthy();
    expect(image?.newTag).toBeTruthy();
    expect(image.newTag).not.toBe('latest');
    // A replicas: count on an autoscaled Deployment resets the autoscaler's count at each apply.
    expect(kustomization.replicas).toBeUndefined();
    for (const [name, d] of deployments) expect([name, d.spec.replicas]).toEqual([name, undefined]);
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
    expect(deployments.size).toBe(SERVICE_NAMES.length);
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
        expect([c.name, env.names.includes('API_KEY_PRIVATE_KEY')]).toEqual([
          c.name,
          name === 'identity' || name === 'console',
        ]);
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
    expect(rendered).toHaveLength(SERVICE_NAMES.length);
    const configMaps = new Map<string, Env>(
      docs.filter((x) => x?.kind === 'ConfigMap').map((x) => [x.metadata.name, x.data ?? {}]),
    );
    const expected = renderProduction();
    for (const d of rendered) {
      const name = d.metadata.name as ServiceName;
      expect(SERVICE_NAMES).toContain(name);
      expect(d.spec.replicas).toBeUndefined();
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
      // The APIs at api.<service>.<domain>; the console's page at console.<domain>.
      expect(rule.host).toMatch(new RegExp(name === 'console' ? '^console\\.' : `^api\\.${name}\\.`));
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

  it('autoscaling: at least two pods of every service, more allowed', () => {
    const patches = readDocs(path.join(PRODUCTION, 'autoscaling.patch.yaml'));
    expect(patches.map((p) => p.metadata.name).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const p of patches) {
      expect([p.metadata.name, p.spec.minReplicas >= 2]).toEqual([p.metadata.name, true]);
      expect(p.spec.maxReplicas).toBeGreaterThan(p.spec.minReplicas);
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
