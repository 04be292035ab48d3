import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Module boundaries of the workspace (what @nx/enforce-module-boundaries would enforce):
 * apps import libs only, never another app (their integration tests may start other apps);
 * platform imports contracts only; contracts import no workspace code; no library imports tools/
 * (the dev stack and the test harness share the launchers of libs/devstack, which imports nothing of
 * the workspace).
 */
const root = path.resolve(__dirname, '../../..');

function files(dir: string, ext = /\.ts$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules') return [];
    return statSync(full).isDirectory() ? files(full, ext) : ext.test(full) ? [full] : [];
  });
}

const imports = (file: string) => [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);

function resolvesInto(file: string, spec: string): string | undefined {
  if (spec.startsWith('@kyc/')) return `libs/${spec.slice(5)}`;
  if (!spec.startsWith('.')) return undefined;
  return path.relative(root, path.resolve(path.dirname(file), spec));
}

describe('workspace module boundaries', () => {
  const apps = readdirSync(path.join(root, 'apps'));

  it('has the seven services and the console', () => {
    expect(apps.sort()).toEqual([
      'account',
      'checks',
      'console',
      'customers',
      'engagement',
      'identity',
      'pass',
      'validations',
    ]);
  });

  it.each(apps)('app %s imports no other app from its sources', (app) => {
    for (const file of files(path.join(root, 'apps', app, 'src'))) {
      for (const spec of imports(file)) {
        const target = resolvesInto(file, spec);
        if (target?.startsWith('apps/'))
          expect(`${path.relative(root, file)} -> ${target}`).toMatch(new RegExp(`-> apps/${app}/`));
        if (target?.startsWith('libs/testing')) throw new Error(`${file} imports the testing library outside tests`);
      }
    }
  });

  it('platform imports contracts only, contracts import nothing of the workspace', () => {
    for (const [lib, allowed] of [
      ['platform', ['libs/platform', 'libs/contracts']],
      ['contracts', ['libs/contracts']],
      ['json-logic', ['libs/json-logic']],
    ] as const) {
      for (const file of files(path.join(root, 'libs', lib, 'src'))) {
        for (const spec of imports(file)) {
          const target = resolvesInto(file, spec);
          if (target) expect(allowed.some((a) => target.startsWith(a))).toBe(true);
        }
      }
    }
  });

  it('no library imports tools/; libs/devstack imports nothing of the workspace', () => {
    for (const file of files(path.join(root, 'libs'), /\.(ts|mjs)$/)) {
      for (const spec of imports(file)) {
        const target = resolvesInto(file, spec);
        if (target?.startsWith('tools/')) throw new Error(`${path.relative(root, file)} imports ${target}`);
        if (target && file.startsWith(path.join(root, 'libs/devstack/')))
          expect(`${path.relative(root, file)} -> ${target}`).toMatch(/-> libs\/devstack\//);
      }
    }
  });
});
