// Validates Kubernetes objects against the API's OpenAPI schemas, offline: kubernetes-models (the
// Kubernetes API) and @kubernetes-models/prometheus-operator (its CRDs, for ServiceMonitor). Both are
// ES modules only, so deploy-schemas.spec.ts runs this script: JSON [{ where, doc }] on stdin, JSON
// [{ where, kind, error }] on stdout (an empty list when every object is valid).
import { readFileSync } from 'node:fs';

/** The module of a model: core/v1 objects live under kubernetes-models/v1, CRDs in their own packages. */
function modulePath(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (group === 'monitoring.coreos.com') return `@kubernetes-models/prometheus-operator/${group}/${version}/${kind}`;
  return group ? `kubernetes-models/${group}/${version}/${kind}` : `kubernetes-models/${version}/${kind}`;
}

const objects = JSON.parse(readFileSync(0, 'utf8'));
const problems = [];
for (const { where, doc } of objects) {
  const kind = `${doc?.apiVersion}/${doc?.kind}`;
  let Model;
  try {
    Model = (await import(modulePath(doc.apiVersion, doc.kind)))[doc.kind];
  } catch {
    problems.push({ where, kind, error: 'no schema for this apiVersion and kind' });
    continue;
  }
  try {
    new Model(doc).validate();
  } catch (err) {
    problems.push({ where, kind, error: String(err.message ?? err) });
  }
}
process.stdout.write(JSON.stringify(problems));
