/** Deployment files kept consistent with the code (see deploy-fixture.ts): schemas. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { parseAllDocuments } from 'yaml';

import {
  BASE,
  kustomizationDirs,
  kustomizationRefs,
  manifests,
  ownYamlFiles,
  PRODUCTION,
  readDocs,
  rel,
  ROOT,
} from './deploy-fixture';

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
      'deploy/overlays/production-pgbouncer',
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
