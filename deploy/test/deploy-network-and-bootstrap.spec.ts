/** Deployment files kept consistent with the code (see deploy-fixture.ts): network and bootstrap. */
import path from 'node:path';

import {
  ADMIN_COMMANDS,
  adminInvocations,
  applyContainerPatch,
  BASE,
  BASE_IMAGE,
  DEPLOY,
  Env,
  expectConfigLoads,
  kustomizationRefs,
  manifests,
  METRICS_PORT,
  ownYamlFiles,
  PRODUCTION,
  readDocs,
  resolveEnv,
  selects,
  SERVICE_NAMES,
  SERVICES,
} from './deploy-fixture';

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
      // From other pods of the platform: identity -> validations, engagement and pass only.
      const fromPods = rules.filter((r) => r.from.some((f: any) => f.podSelector && !f.namespaceSelector));
      expect(
        fromPods.flatMap((r) => r.from.map((f: any) => f.podSelector.matchLabels['app.kubernetes.io/name'])),
      ).toEqual(
        // identity calls validations, engagement and pass; the console calls every service.
        [
          ...(['validations', 'engagement', 'pass'].includes(name) ? ['identity'] : []),
          ...(name === 'console' ? [] : ['console']),
        ],
      );
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
    expect(ports(applying(topics, 'Egress').flatMap((p) => p.spec.egress ?? [])).sort()).toEqual([
      53, 53, 9092, 9093, 9094, 9096,
    ]);
    const bootstrap = readDocs(path.join(DEPLOY, 'bootstrap/job.yaml'))[0].spec.template.metadata.labels;
    // 6432: PostgreSQL through the optional PgBouncer.
    expect(ports(applying(bootstrap, 'Egress').flatMap((p) => p.spec.egress ?? [])).sort()).toEqual([
      53, 53, 5432, 6432,
    ]);
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
    // The wallet's OAuth client is identity's serving concern, not an operator command's.
    delete expected.IDENTITY_PASS_CLIENT_ID;
    delete expected.IDENTITY_PASS_CLIENT_SECRET;
    expect(secrets).toEqual(expected);
  });
});
